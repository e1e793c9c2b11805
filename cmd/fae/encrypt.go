package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/faelabs/fae/stream"
)

const (
	keySynopsis     = "(--key-file PATH | --passphrase-file PATH | -p)"
	encryptSynopsis = "[--alg NAME] " + keySynopsis + " [-o OUT] [--force] [IN|-]"
	decryptSynopsis = keySynopsis + " [-o OUT] [--force] [IN|-]"
	catSynopsis     = "--offset N --length M " + keySynopsis + " IN"
)

const keyFlagsHelp = `  --key-file PATH         the key: the whole file, 32 bytes or more, such as
                          one 'fae keygen' made
  --passphrase-file PATH  the passphrase: the file's first line
  -p                      read the passphrase from the terminal, without echo
`

const encryptHelp = `Encrypt encrypts IN, or standard input if IN is - or absent, into fae's
file format (docs/format.md): chunks of 1 MiB, each sealed and checked on
its own, on all cores. A passphrase is stretched with Argon2id (about half
a second); -p asks for it twice.

  -a, --alg NAME          the algorithm (default ` + stream.DefaultAlgorithm + `): any of
                          'fae list' with a 32-byte key and a nonce of 12
                          bytes or more
` + keyFlagsHelp + `  -o OUT                  write to OUT instead of standard output
  --force                 overwrite OUT if it exists

OUT is written as a temporary file beside it, mode 0600, and renamed only
once all is written: a failure leaves no OUT behind. Encrypted data is not
written to a terminal.
`

const decryptHelp = `Decrypt decrypts IN, or standard input if IN is - or absent, a file that
'fae encrypt' wrote. The header says whether it needs a key or a passphrase.

` + keyFlagsHelp + `  -o OUT                  write to OUT instead of standard output
  --force                 overwrite OUT if it exists

Every chunk is verified before any of its bytes is written. A wrong key, or
a damaged, truncated or reordered file, fails with exit status 1 and names
the chunk that failed; OUT is written as a temporary file that is renamed
into place only on success, so nothing is left behind. On standard output,
the chunks before the failing one have been written.
`

// Test hooks: the chunk size (0: the default) and Argon2id cost (zero: the
// default) encrypt uses.
var (
	chunkSize  int
	argon2Cost stream.Argon2idParams
)

// A keySource holds the flags that say where the key or passphrase is.
type keySource struct {
	keyFile, passFile string
	prompt            bool
}

func (k *keySource) register(fs *flag.FlagSet) {
	fs.StringVar(&k.keyFile, "key-file", "", "")
	fs.StringVar(&k.passFile, "passphrase-file", "", "")
	fs.BoolVar(&k.prompt, "p", false, "")
}

func (k *keySource) check() error {
	n := 0
	for _, set := range []bool{k.keyFile != "", k.passFile != "", k.prompt} {
		if set {
			n++
		}
	}
	if n != 1 {
		return usageErrorf("give one of --key-file, --passphrase-file and -p")
	}
	return nil
}

// maxKeyFile bounds what is read from a key or passphrase file, which is
// never large: a bigger one is likely the wrong file.
const maxKeyFile = 64 << 10

// read returns the key or passphrase and whether it is a passphrase; with
// confirm, a passphrase typed at the terminal is asked for twice.
func (k *keySource) read(confirm bool) (secret []byte, passphrase bool, err error) {
	switch {
	case k.prompt:
		p, err := promptPassphrase(confirm)
		return p, true, err
	case k.passFile != "":
		b, err := readSmallFile(k.passFile, "passphrase")
		if err != nil {
			return nil, false, err
		}
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			n := len(bytes.TrimSuffix(b[:i], []byte("\r")))
			clear(b[n:])
			b = b[:n]
		}
		if len(b) == 0 {
			return nil, false, usageErrorf("passphrase file %s is empty", k.passFile)
		}
		return b, true, nil
	}
	b, err := readSmallFile(k.keyFile, "key")
	if err != nil {
		return nil, false, err
	}
	if len(b) < stream.MinKeySize {
		clear(b)
		return nil, false, usageErrorf("key file %s has %d bytes, want at least %d", k.keyFile, len(b), stream.MinKeySize)
	}
	return b, false, nil
}

// readSmallFile reads a key or passphrase file of at most maxKeyFile bytes.
func readSmallFile(path, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	switch {
	case err != nil:
		clear(b)
		return nil, fmt.Errorf("reading %s: %w", what, err)
	case len(b) > maxKeyFile:
		clear(b)
		return nil, usageErrorf("%s file %s is over %d bytes: not a %s file", what, path, maxKeyFile, what)
	}
	return b, nil
}

// fileFlags parses the flags encrypt and decrypt share, and returns the
// input's name ("-" for standard input).
type fileFlags struct {
	keySource
	out   string
	force bool
}

func (f *fileFlags) parse(fs *flag.FlagSet, args []string) (in string, err error) {
	f.register(fs)
	fs.StringVar(&f.out, "o", "", "")
	fs.BoolVar(&f.force, "force", false, "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return "", err
	}
	switch len(pos) {
	case 0:
		in = "-"
	case 1:
		in = pos[0]
	default:
		return "", usageErrorf("unexpected argument %q: one input at most", pos[1])
	}
	return in, f.check()
}

func encrypt(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("encrypt")
	var f fileFlags
	alg := stream.DefaultAlgorithm
	fs.StringVar(&alg, "alg", alg, "")
	fs.StringVar(&alg, "a", alg, "")
	in, err := f.parse(fs, args)
	if err != nil {
		return err
	}
	h := stream.Header{Algorithm: alg, ChunkSize: chunkSize}
	// The library's own check, with a throwaway key, before a passphrase
	// is asked for.
	if _, err := stream.NewWriter(io.Discard, h, make([]byte, stream.MinKeySize)); err != nil {
		return usageError{streamError(err)}
	}
	if (f.out == "" || f.out == "-") && isTerminal(stdout) {
		return usageErrorf("refusing to write encrypted data to a terminal; use -o OUT or redirect standard output")
	}
	return process(in, &f, stdin, stdout, true, func(r *progress, w io.Writer, secret []byte, passphrase bool) error {
		if h.Passphrase = passphrase; passphrase {
			h.Argon2id = argon2Cost
		}
		sw, err := stream.NewWriter(w, h, secret)
		if err != nil {
			return streamError(err)
		}
		r.start()
		if _, err := io.Copy(sw, r); err != nil {
			return err
		}
		return sw.Close()
	})
}

func decrypt(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("decrypt")
	var f fileFlags
	in, err := f.parse(fs, args)
	if err != nil {
		return err
	}
	return process(in, &f, stdin, stdout, false, func(r *progress, w io.Writer, secret []byte, _ bool) error {
		sr, err := stream.NewReader(r, secret)
		if err != nil {
			return streamError(err)
		}
		r.start()
		_, err = io.Copy(w, sr)
		return streamError(err)
	})
}

// process opens the input and the key, then runs job from the input, with
// a progress bar, to a temporary output, which becomes the output only if
// job succeeds.
func process(in string, f *fileFlags, stdin io.Reader, stdout io.Writer, encrypting bool,
	job func(r *progress, w io.Writer, secret []byte, passphrase bool) error) error {
	if err := checkOutput(f.out, f.force); err != nil {
		return err
	}
	r, size := stdin, int64(-1)
	if in != "-" {
		file, err := os.Open(in)
		if err != nil {
			return err
		}
		defer file.Close()
		if fi, err := file.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
		r = file
	}
	secret, passphrase, err := f.read(encrypting)
	if err != nil {
		return err
	}
	defer clear(secret)
	out, err := createOutput(f.out, f.force, stdout)
	if err != nil {
		return err
	}
	verb := "decrypting"
	if encrypting {
		verb = "encrypting"
	}
	p := newProgress(r, size, verb)
	err = job(p, out, secret, passphrase)
	p.done()
	if err != nil {
		out.abort()
		return err
	}
	return out.commit()
}

// streamError drops the package names from an error of package stream,
// since report names the command.
func streamError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, p := range []string{"stream: ", "fae: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return errors.New(msg)
}
