package main

import (
	"crypto/rand"
	"io"
)

const keygenHelp = `Keygen writes a new key: 32 random bytes, raw, to PATH or, without -o, to
standard output (not to a terminal). It never overwrites a file, nor
writes through a symbolic link to one: PATH is written under a temporary
name beside it, mode 0600, synced, and linked into place only if nothing is
there by then; its directory is then synced. A signal that would end fae
removes the temporary file first. A character device or FIFO as PATH is
written in place. Use the key with --key-file; keep it secret.
`

func keygen(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlagSet("keygen")
	var path string
	fs.StringVar(&path, "o", "", "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return usageErrorf("unexpected argument %q", pos[0])
	case path == "" && isSet(fs, "o"):
		return usageErrorf("-o: empty file name")
	}
	out, err := planOutput(path, false, "keygen does not overwrite files", stdout)
	if err != nil {
		return err
	}
	if out.toTerminal() {
		return usageErrorf("refusing to write a raw key to a terminal; use -o PATH or redirect standard output")
	}
	if err := out.create(); err != nil {
		return err
	}
	if out.toTerminal() {
		out.abort()
		return usageErrorf("refusing to write a raw key to a terminal")
	}
	key := make([]byte, 32)
	rand.Read(key)
	defer clear(key)
	if _, err := out.Write(key); err != nil {
		out.abort()
		return err
	}
	return out.commit()
}
