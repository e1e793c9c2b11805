package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// promptPassphrase reads a passphrase from the terminal without echo, twice
// if confirm. It uses the controlling terminal, so that standard input can
// carry the data, or standard input if that is a terminal.
func promptPassphrase(confirm bool) ([]byte, error) {
	var in *os.File
	var prompts io.Writer
	if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		defer tty.Close()
		in, prompts = tty, tty
	} else if term.IsTerminal(int(os.Stdin.Fd())) {
		in, prompts = os.Stdin, os.Stderr
	} else {
		return nil, usageErrorf("-p needs a terminal; use --passphrase-file")
	}
	defer restoreOnInterrupt(int(in.Fd()), prompts)()
	ask := func(prompt string) ([]byte, error) {
		fmt.Fprint(prompts, prompt)
		p, err := term.ReadPassword(int(in.Fd()))
		fmt.Fprintln(prompts)
		if err != nil {
			return nil, fmt.Errorf("reading passphrase: %w", err)
		}
		return p, nil
	}
	p, err := ask("Passphrase: ")
	if err != nil {
		return nil, err
	}
	if len(p) == 0 {
		return nil, usageErrorf("empty passphrase")
	}
	if confirm {
		again, err := ask("Passphrase again: ")
		if err != nil {
			clear(p)
			return nil, err
		}
		same := bytes.Equal(p, again)
		clear(again)
		if !same {
			clear(p)
			return nil, usageErrorf("the passphrases differ")
		}
	}
	return p, nil
}

// restoreOnInterrupt puts the terminal back as it is now, should a signal
// end fae before stop is called: otherwise an interrupt at the prompt
// would leave it without echo.
func restoreOnInterrupt(fd int, w io.Writer) (stop func()) {
	state, err := term.GetState(fd)
	if err != nil {
		return func() {}
	}
	return onInterrupt(func() {
		term.Restore(fd, state)
		fmt.Fprintln(w)
	})
}
