package main

import (
	"fmt"
	"io"
	"math"
	"os"
)

const catHelp = `Cat writes M bytes of IN's plaintext, from offset N, to standard output:
fewer if the plaintext ends first. IN must be a regular file that 'fae
encrypt' wrote; cat decrypts and verifies only its header, its last chunk
(which proves the length) and the chunks the range covers, and writes only
verified bytes.

  --offset N              the first byte, from 0, in decimal
  --length M              how many bytes, in decimal
` + keyFlagsHelp + kdfFlagHelp

// catPiece is how much plaintext cat decrypts at a time.
const catPiece = 16 << 20

func cat(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlagSet("cat")
	var k keySource
	var off, length int64
	k.register(fs)
	k.registerLimit(fs)
	decimalVar(fs, &off, "offset", 0, math.MaxInt64)
	decimalVar(fs, &length, "length", 0, math.MaxInt64)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return usageErrorf("give one input file")
	case pos[0] == "-":
		return usageErrorf("cat reads a file, not standard input")
	case !isSet(fs, "offset") || !isSet(fs, "length"):
		return usageErrorf("give --offset and --length")
	}
	if err := k.check(); err != nil {
		return err
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file; cat needs one, to read its chunks in any order", pos[0])
	}
	if sameFile(fi, stat(stdout)) {
		return usageErrorf("standard output is the input, %s", pos[0])
	}
	secret, _, err := k.read(false)
	if err != nil {
		return err
	}
	r, err := k.limits().NewReaderAt(f, fi.Size(), secret)
	clear(secret)
	if err != nil {
		return streamError(err)
	}
	size := r.(interface{ Size() int64 }).Size()
	if off > size {
		return fmt.Errorf("offset %d is past the end of the %d-byte plaintext", off, size)
	}
	length = min(length, size-off)
	buf := make([]byte, min(length, catPiece))
	for length > 0 {
		n, err := r.ReadAt(buf[:min(length, int64(len(buf)))], off)
		if err != nil {
			return streamError(err)
		}
		if err := write(stdout, buf[:n]); err != nil {
			return err
		}
		off += int64(n)
		length -= int64(n)
	}
	return nil
}
