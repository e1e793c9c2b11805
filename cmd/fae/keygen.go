package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

const keygenHelp = `Keygen writes a new key: 32 random bytes, raw, to PATH or, without -o, to
standard output (not to a terminal). It never overwrites a file; PATH is
created with mode 0600. Use the key with --key-file; keep it secret.
`

func keygen(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlagSet("keygen")
	var path string
	fs.StringVar(&path, "o", "", "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("unexpected argument %q", pos[0])
	}
	key := make([]byte, 32)
	rand.Read(key)
	defer clear(key)
	if path == "" || path == "-" {
		if isTerminal(stdout) {
			return usageErrorf("refusing to write a raw key to a terminal; use -o PATH or redirect standard output")
		}
		return write(stdout, key)
	}
	return writeNewFile(path, key)
}

// writeNewFile writes b to a new file at path, which must not exist.
func writeNewFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists; keygen does not overwrite files", path)
	} else if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
