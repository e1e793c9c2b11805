// Command fae encrypts and authenticates messages and files with the
// algorithms of package github.com/faelabs/fae, and measures them.
//
// Usage:
//
//	fae list
//	fae seal --alg NAME (--key HEX | --key-file PATH) --nonce HEX [--ad HEX | --ad-file PATH] [--tag-size N] <plaintext >sealed
//	fae open --alg NAME (--key HEX | --key-file PATH) --nonce HEX [--ad HEX | --ad-file PATH] [--tag-size N] <sealed >plaintext
//	fae bench [--algs LIST] [--sizes LIST] [--full] [--ad N] [--quick] [--preset NAME] [--format text|md|csv|json] [--out DIR] [--quiet] [--gpu] [--batch N]
//	fae keygen [-o PATH]
//	fae encrypt [--alg NAME] (--key-file PATH | --passphrase-file PATH | -p) [-o OUT] [--force] [IN|-]
//	fae decrypt (--key-file PATH | --passphrase-file PATH | -p) [--max-kdf-memory MIB] [-o OUT] [--force] [IN|-]
//	fae cat --offset N --length M (--key-file PATH | --passphrase-file PATH | -p) [--max-kdf-memory MIB] IN
//	fae help [COMMAND]
//
// Run "fae help" for the details. The exit status is 0 on success, 1 when
// the operation fails (authentication, I/O) and 2 for a usage error. Errors
// are one line on standard error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// A command is one subcommand of fae. run reads its arguments, which follow
// the command's name, and returns an error for main to report; a usageError
// makes the exit status 2.
type command struct {
	name     string
	synopsis string // the arguments, as usage shows them
	summary  string // one line, for "fae help"
	help     string // the details, for "fae help NAME"
	run      func(args []string, stdin io.Reader, stdout io.Writer) error
}

// commands is every subcommand, in the order usage lists them.
var commands = []command{
	{"list", "", "print the algorithms and their sizes", listHelp, list},
	{"seal", aeadSynopsis + " <plaintext >sealed", "encrypt and authenticate standard input", sealHelp, seal},
	{"open", aeadSynopsis + " <sealed >plaintext", "check and decrypt standard input", openHelp, open},
	{"bench", benchSynopsis, "measure the algorithms' speed beside their peers'", benchHelp, runBench},
	{"keygen", "[-o PATH]", "make a key file: 32 random bytes", keygenHelp, keygen},
	{"encrypt", encryptSynopsis, "encrypt a file, in chunks, with a key file or a passphrase", encryptHelp, encrypt},
	{"decrypt", decryptSynopsis, "verify and decrypt a file 'fae encrypt' wrote", decryptHelp, decrypt},
	{"cat", catSynopsis, "decrypt a byte range of an encrypted file", catHelp, cat},
}

// warnings is where commands write warnings: run's stderr.
var warnings io.Writer = os.Stderr

// relabeled is an error reworded for the command line that still wraps
// the error it came from.
type relabeled struct {
	msg string
	err error
}

func (e relabeled) Error() string { return e.msg }
func (e relabeled) Unwrap() error { return e.err }

func relabel(msg string, err error) error { return relabeled{msg, err} }

// A usageError is a mistake in the command line: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return help(args[1:], stdout, stderr)
	}
	warnings = stderr
	cmd := lookup(args[0])
	if cmd == nil {
		return report(stderr, usageErrorf("unknown command %q; run 'fae help'", args[0]))
	}
	err := cmd.run(args[1:], stdin, stdout)
	switch {
	case errors.Is(err, flag.ErrHelp):
		commandUsage(stdout, cmd)
		return 0
	case err != nil:
		return report(stderr, fmt.Errorf("%s: %w", cmd.name, err))
	}
	return 0
}

func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// report writes err as one line and returns the exit status.
func report(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "fae: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
	if errors.As(err, new(usageError)) {
		return 2
	}
	return 1
}

func help(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		usage(stdout)
	case len(args) == 1 && lookup(args[0]) != nil:
		commandUsage(stdout, lookup(args[0]))
	default:
		return report(stderr, usageErrorf("unknown help topic %q; run 'fae help'", strings.Join(args, " ")))
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "fae encrypts and authenticates messages and files, and measures the algorithms.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	for i := range commands {
		fmt.Fprintf(w, "  %s\n", synopsis(&commands[i]))
	}
	fmt.Fprintln(w, "  fae help [COMMAND]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, flagsHelp)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status: 0 success, 1 the operation failed (authentication, I/O), 2 usage error.")
}

func commandUsage(w io.Writer, c *command) {
	fmt.Fprintf(w, "Usage: %s\n\n%s", synopsis(c), c.help)
	if strings.HasPrefix(c.synopsis, aeadSynopsis) {
		fmt.Fprintf(w, "\n%s", flagsHelp)
	}
}

func synopsis(c *command) string {
	return strings.TrimSpace("fae " + c.name + " " + c.synopsis)
}
