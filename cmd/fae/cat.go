package main

import (
	"fmt"
	"io"
	"os"

	"github.com/faelabs/fae/stream"
)

const catHelp = `Cat writes M bytes of IN's plaintext, from offset N, to standard output:
fewer if the plaintext ends first. IN must be a file that 'fae encrypt'
wrote; cat decrypts and verifies only its header, its last chunk (which
proves the length) and the chunks the range covers.

  --offset N              the first byte, from 0
  --length M              how many bytes
` + keyFlagsHelp

// catPiece is how much plaintext cat decrypts at a time.
const catPiece = 16 << 20

func cat(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlagSet("cat")
	var k keySource
	var off, length int64
	k.register(fs)
	fs.Int64Var(&off, "offset", -1, "")
	fs.Int64Var(&length, "length", -1, "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return usageErrorf("give one input file")
	case pos[0] == "-":
		return usageErrorf("cat reads a file, not standard input")
	case off < 0 || length < 0:
		return usageErrorf("give --offset and --length, 0 or more")
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
	secret, _, err := k.read(false)
	if err != nil {
		return err
	}
	r, err := stream.NewReaderAt(f, fi.Size(), secret)
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
