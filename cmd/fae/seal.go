package main

import (
	"crypto/cipher"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/faelabs/fae"
)

const aeadSynopsis = "--alg NAME (--key HEX | --key-file PATH) --nonce HEX [--ad HEX | --ad-file PATH] [--tag-size N]"

const sealHelp = `Seal encrypts and authenticates standard input and writes the ciphertext
followed by the tag.
`

const openHelp = `Open reads standard input, a ciphertext followed by its tag, all of it,
and writes the plaintext only if the input is authentic: nothing otherwise.
`

const flagsHelp = `Flags of seal and open:
  -a, --alg NAME    the algorithm, one of those 'fae list' prints
  --key HEX         the key, in hex; other users can see it in the process
                    list, so prefer --key-file
  --key-file PATH   a file whose first bytes, as many as the algorithm's key
                    size, are the key; a shorter file is a usage error
  --nonce HEX       the nonce, in hex; its length sets the nonce size. Never
                    seal two messages with one key and one nonce. OCB3 and
                    RAOCB warn of nonces under 6 bytes
  --ad HEX          associated data, in hex: authenticated, not encrypted
  --ad-file PATH    the associated data: the whole file, raw
  --tag-size N      the tag size in bytes, in decimal, if not the
                    algorithm's default
Hex may be upper or lower case. Standard input and output must not be the
same file.
`

func seal(args []string, stdin io.Reader, stdout io.Writer) error {
	aead, nonce, ad, err := parseAEAD("seal", args, stdin, stdout)
	if err != nil {
		return err
	}
	in, err := io.ReadAll(stdin)
	if err != nil {
		return fmt.Errorf("reading input: %w", err)
	}
	return write(stdout, aead.Seal(in[:0], nonce, in, ad))
}

func open(args []string, stdin io.Reader, stdout io.Writer) error {
	aead, nonce, ad, err := parseAEAD("open", args, stdin, stdout)
	if err != nil {
		return err
	}
	in, err := io.ReadAll(stdin)
	if err != nil {
		return fmt.Errorf("reading input: %w", err)
	}
	out, err := aead.Open(in[:0], nonce, in, ad)
	if err != nil {
		return relabel("authentication failed: wrong key, nonce, associated data or tag size, or a corrupt input", err)
	}
	return write(stdout, out)
}

func write(w io.Writer, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// parseAEAD reads the flags that seal and open share and returns the AEAD
// they name, the nonce and the associated data.
func parseAEAD(name string, args []string, stdin io.Reader, stdout io.Writer) (aead cipher.AEAD, nonce, ad []byte, err error) {
	fs := newFlagSet(name)
	var alg, keyHex, keyFile, nonceHex, adHex, adFile string
	var tagSize int64
	fs.StringVar(&alg, "alg", "", "")
	fs.StringVar(&alg, "a", "", "")
	fs.StringVar(&keyHex, "key", "", "")
	fs.StringVar(&keyFile, "key-file", "", "")
	fs.StringVar(&nonceHex, "nonce", "", "")
	fs.StringVar(&adHex, "ad", "", "")
	fs.StringVar(&adFile, "ad-file", "", "")
	decimalVar(fs, &tagSize, "tag-size", 0, math.MaxInt32)
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return nil, nil, nil, err
	} else if err != nil {
		return nil, nil, nil, usageError{err}
	}
	if fs.NArg() > 0 {
		return nil, nil, nil, usageErrorf("unexpected argument %q (the input is read from standard input)", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case !set["alg"] && !set["a"]:
		return nil, nil, nil, usageErrorf("missing --alg")
	case set["key"] && set["key-file"]:
		return nil, nil, nil, usageErrorf("use --key or --key-file, not both")
	case !set["key"] && !set["key-file"]:
		return nil, nil, nil, usageErrorf("missing --key or --key-file")
	case !set["nonce"]:
		return nil, nil, nil, usageErrorf("missing --nonce")
	case set["ad"] && set["ad-file"]:
		return nil, nil, nil, usageErrorf("use --ad or --ad-file, not both")
	case sameFile(stat(stdin), stat(stdout)):
		return nil, nil, nil, usageErrorf("standard input and standard output are the same file")
	}

	var key []byte
	if nonce, err = decodeHex("nonce", nonceHex); err != nil {
		return nil, nil, nil, err
	}
	if set["ad-file"] {
		if ad, err = os.ReadFile(adFile); err != nil {
			return nil, nil, nil, fmt.Errorf("reading associated data: %w", err)
		}
	} else if ad, err = decodeHex("ad", adHex); err != nil {
		return nil, nil, nil, err
	}
	if set["key"] {
		key, err = decodeHex("key", keyHex)
	} else {
		key, err = readKey(keyFile, alg)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	opts := []fae.Option{fae.WithNonceSize(len(nonce))}
	if set["tag-size"] {
		opts = append(opts, fae.WithTagSize(int(tagSize)))
	}
	aead, err = fae.New(alg, key, opts...)
	clear(key)
	if err != nil {
		return nil, nil, nil, usageError{libError(err)}
	}
	warnShortNonce(name, alg, len(nonce))
	return aead, nonce, ad, nil
}

// warnShortNonce warns of an OCB3 or RAOCB nonce under 6 bytes, which fae
// accepts as RFC 7253 does.
func warnShortNonce(cmd, alg string, n int) {
	if n >= 6 {
		return
	}
	ocb := fmt.Sprintf("OCB3 with a nonce under 6 bytes (this one has %d) can lose confidentiality and authenticity until the key changes, even if no nonce repeats (Liénardy and Lafitte, IACR ePrint 2023/326); use 12 bytes", n)
	switch {
	case strings.HasSuffix(alg, "-ocb3"):
		fmt.Fprintf(warnings, "fae: %s: warning: %s\n", cmd, ocb)
	case strings.HasPrefix(alg, "raocb-"):
		fmt.Fprintf(warnings, "fae: %s: warning: RAOCB formats nonces as OCB3 does, and %s\n", cmd, ocb)
	}
}

// libError drops the package name from an error of package fae, since
// report names the command.
func libError(err error) error {
	return relabel(strings.TrimPrefix(err.Error(), "fae: "), err)
}

func decodeHex(flagName, s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, usageErrorf("--%s is not valid hex: %w", flagName, err)
	}
	return b, nil
}

// readKey returns the first bytes of the key file, as many as alg's key
// size. A file too short is a usage error, as a --key of the wrong length
// is; a file that cannot be read is an I/O failure.
func readKey(path, alg string) ([]byte, error) {
	infos := fae.Algorithms()
	i := slices.IndexFunc(infos, func(info fae.Info) bool { return info.Name == alg })
	if i < 0 {
		_, err := fae.New(alg, nil) // the error lists the known names
		return nil, usageError{libError(err)}
	}
	keySize := infos[i].KeySize
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading key: %w", err)
	}
	defer f.Close()
	key := make([]byte, keySize)
	n, err := io.ReadFull(f, key)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		clear(key)
		return nil, usageErrorf("key file %s has %d bytes, %s needs %d", path, n, alg, keySize)
	case err != nil:
		clear(key)
		return nil, fmt.Errorf("reading key: %w", err)
	}
	return key, nil
}
