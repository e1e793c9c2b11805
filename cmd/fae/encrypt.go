package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/faelabs/fae/stream"
)

const (
	keySynopsis     = "(--key-file PATH | --passphrase-file PATH | -p)"
	encryptSynopsis = "[--alg NAME] " + keySynopsis + " [-o OUT] [--force] [IN|-]"
	decryptSynopsis = keySynopsis + " [--max-kdf-memory MIB] [-o OUT] [--force] [IN|-]"
	catSynopsis     = "--offset N --length M " + keySynopsis + " [--max-kdf-memory MIB] IN"
)

const keyFlagsHelp = `  --key-file PATH         the key: the whole file, 32 bytes or more, such as
                          one 'fae keygen' made
  --passphrase-file PATH  the passphrase: the file's first line
  -p                      read the passphrase from the terminal, without echo
`

const kdfFlagHelp = `  --max-kdf-memory MIB    the most memory a passphrase file may make Argon2id
                          use, in MiB (default 1024): a file's header names
                          the cost and can be checked only after paying it,
                          so files asking for more, or for more than 4 passes
                          over it, are refused; raise it for files you trust
`

// outputHelp says what encrypt and decrypt leave at OUT.
const outputHelp = `A file OUT is written under a hidden temporary name beside it (no longer
than OUT's name, or than 28 bytes), mode 0600, synced, and renamed to OUT
only once all is written; the directory is then synced. On failure, or on
a signal that would end fae (SIGINT, SIGTERM, SIGHUP, SIGQUIT and the
like), fae removes the temporary file first: OUT is left as it was, absent
or, with --force, the old file. Only SIGKILL or a crash can leave the
temporary file behind. fae does not write through a symbolic link to a
file. A character device or FIFO as OUT (or, with --force, a block device)
is written in place, never replaced. The input must not be the output.
`

const encryptHelp = `Encrypt encrypts IN, or standard input if IN is - or absent, into fae's
file format (docs/format.md): chunks of 1 MiB, each sealed and checked on
its own, on all cores. A passphrase is stretched with Argon2id (4 passes
over 256 MiB: about half a second); -p asks for it twice.

  -a, --alg NAME          the algorithm (default ` + stream.DefaultAlgorithm + `): any of
                          'fae list' with a 32-byte key and a nonce of 12
                          bytes or more
` + keyFlagsHelp + `  -o OUT                  write to OUT instead of standard output
  --force                 overwrite OUT if it is a file (or a block device)

` + outputHelp + `
A failure or a signal while writing to standard output, a device or a FIFO
leaves a truncated file there, which fails to decrypt. Encrypted data is
not written to a terminal.
`

const decryptHelp = `Decrypt decrypts IN, or standard input if IN is - or absent, a file that
'fae encrypt' wrote. The header says whether it needs a key or a passphrase.

` + keyFlagsHelp + kdfFlagHelp + `  -o OUT                  write to OUT instead of standard output
  --force                 overwrite OUT if it is a file (or a block device)

Every chunk is verified before any of its bytes is written. A wrong key, or
a damaged, truncated or reordered file, fails with exit status 1 and names
the chunk that failed.

` + outputHelp + `
On standard output, a device or a FIFO, the chunks before a failing one
(or before a signal) have been written, and only those: each verified.
`

// Test hooks: the chunk size (0: the default) and Argon2id cost (zero: the
// default) encrypt uses.
var (
	chunkSize  int
	argon2Cost stream.Argon2idParams
)

// A keySource holds the flags that say where the key or passphrase is,
// and, for reading, the most memory Argon2id may use.
type keySource struct {
	keyFile, passFile string
	prompt            bool
	kdfMemory         int64 // MiB; 0: not a flag of the command
}

func (k *keySource) register(fs *flag.FlagSet) {
	fs.StringVar(&k.keyFile, "key-file", "", "")
	fs.StringVar(&k.passFile, "passphrase-file", "", "")
	fs.BoolVar(&k.prompt, "p", false, "")
}

// registerLimit adds --max-kdf-memory, for the commands that read files.
// Its range reaches the most the format allows, 16 passes over 4 GiB.
func (k *keySource) registerLimit(fs *flag.FlagSet) {
	k.kdfMemory = stream.DefaultArgon2idMemoryLimit >> 10
	decimalVar(fs, &k.kdfMemory, "max-kdf-memory", 1, 16<<10)
}

// limits returns the stream.Limits --max-kdf-memory sets.
func (k *keySource) limits() stream.Limits {
	return stream.Limits{Argon2idMemory: uint32(k.kdfMemory) << 10}
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

// notInOut refuses a key or passphrase file that is also the input, which
// would be its own key, or the output, which would overwrite the key (or,
// appended to, change it: the whole file is the key).
func (k *keySource) notInOut(in, out fs.FileInfo) error {
	path, what := k.keyFile, "key"
	if k.passFile != "" {
		path, what = k.passFile, "passphrase"
	}
	fi, err := os.Stat(path)
	switch {
	case path == "" || err != nil: // reading it reports the error
	case in != nil && os.SameFile(fi, in):
		return usageErrorf("the %s file %s is also the input", what, path)
	case sameFile(fi, out):
		return usageErrorf("the %s file %s is also the output", what, path)
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
	switch {
	case in == "":
		return "", usageErrorf("empty input file name")
	case f.out == "" && isSet(fs, "o"):
		return "", usageErrorf("-o: empty file name")
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
	if alg == "" {
		return usageErrorf("--alg: empty algorithm name")
	}
	h := stream.Header{Algorithm: alg, ChunkSize: chunkSize}
	// The library's own check, with a throwaway key, before a passphrase
	// is asked for.
	if _, err := stream.NewWriter(io.Discard, h, make([]byte, stream.MinKeySize)); err != nil {
		return usageError{streamError(err)}
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
	f.registerLimit(fs)
	in, err := f.parse(fs, args)
	if err != nil {
		return err
	}
	return process(in, &f, stdin, stdout, false, func(r *progress, w io.Writer, secret []byte, _ bool) error {
		sr, err := f.limits().NewReader(r, secret)
		if err != nil {
			return streamError(err)
		}
		r.start()
		_, err = io.Copy(w, sr)
		return streamError(err)
	})
}

// process opens the input and the key, then runs job from the input, with
// a progress bar, to the output, which keeps what job wrote only if it
// succeeds.
func process(in string, f *fileFlags, stdin io.Reader, stdout io.Writer, encrypting bool,
	job func(r *progress, w io.Writer, secret []byte, passphrase bool) error) error {
	out, err := planOutput(f.out, f.force, "use --force to overwrite it", stdout)
	if err != nil {
		return err
	}
	if encrypting && out.toTerminal() {
		return usageErrorf("refusing to write encrypted data to a terminal; use -o OUT or redirect standard output")
	}
	r, size, inInfo := stdin, int64(-1), stat(stdin)
	if in != "-" {
		file, err := os.Open(in)
		if err != nil {
			return err
		}
		defer file.Close()
		if inInfo, err = file.Stat(); err != nil {
			return err
		}
		if inInfo.IsDir() {
			return fmt.Errorf("%s is a directory", in)
		}
		if inInfo.Mode().IsRegular() {
			size = inInfo.Size()
		}
		r = file
	}
	if err := out.notInput(inInfo, in); err != nil {
		return err
	}
	if err := f.notInOut(inInfo, out.info); err != nil {
		return err
	}
	secret, passphrase, err := f.read(encrypting)
	if err != nil {
		return err
	}
	defer clear(secret)
	if err := out.create(); err != nil {
		return err
	}
	if encrypting && out.toTerminal() {
		out.abort()
		return usageErrorf("refusing to write encrypted data to a terminal")
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
// since report names the command, and says how to raise the Argon2id
// limit.
func streamError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, p := range []string{"stream: ", "fae: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	var ce *stream.CostError
	if errors.As(err, &ce) {
		msg += fmt.Sprintf("; for a file you trust, raise the limit with --max-kdf-memory %d", (ce.Need+1023)>>10)
	}
	return relabel(msg, err)
}
