package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"golang.org/x/term"
)

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args, where flags may follow the arguments, as in
// "fae decrypt IN -o OUT", and returns the arguments. "--" ends the flags.
func parseFlags(fs *flag.FlagSet, args []string) (pos []string, err error) {
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, err
		} else if err != nil {
			return nil, usageError{err}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func existsError(path string) error {
	return fmt.Errorf("%s exists; use --force to overwrite it", path)
}

// checkOutput fails early if the output file exists and may not be
// replaced.
func checkOutput(path string, force bool) error {
	if path == "" || path == "-" || force {
		return nil
	}
	if _, err := os.Lstat(path); err == nil {
		return existsError(path)
	}
	return nil
}

// An output is where encrypt and decrypt write: standard output, or a
// temporary file beside the target that commit moves into place and abort
// removes, as does an interrupt.
type output struct {
	io.Writer
	tmp   *os.File // nil for standard output
	path  string
	force bool
	stop  func() // ends the removal on interrupt
}

func createOutput(path string, force bool, stdout io.Writer) (*output, error) {
	if path == "" || path == "-" {
		return &output{Writer: stdout}, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &output{Writer: tmp, tmp: tmp, path: path, force: force, stop: removeOnInterrupt(tmp.Name())}, nil
}

func (o *output) abort() {
	if o.tmp != nil {
		o.tmp.Close()
		os.Remove(o.tmp.Name())
		o.stop()
	}
}

// commit moves the temporary file to the output's path. Without force it
// links it there, which fails if the path exists, so that a file made
// since checkOutput is not replaced either; where links fail it checks and
// renames.
func (o *output) commit() error {
	if o.tmp == nil {
		return nil
	}
	defer o.stop()
	name := o.tmp.Name()
	err := o.tmp.Close()
	switch {
	case err != nil:
	case o.force:
		if err = os.Rename(name, o.path); err == nil {
			return nil
		}
	default:
		err = os.Link(name, o.path)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			if _, serr := os.Lstat(o.path); serr == nil {
				err = fs.ErrExist
			} else if err = os.Rename(name, o.path); err == nil {
				return nil
			}
		}
		if errors.Is(err, fs.ErrExist) {
			err = existsError(o.path)
		}
	}
	os.Remove(name)
	return err
}

// removeOnInterrupt removes the file name and exits, with status 1, on an
// interrupt or termination signal, until stop is called.
func removeOnInterrupt(name string) (stop func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-c:
			os.Remove(name)
			fmt.Fprintf(os.Stderr, "fae: %v\n", sig)
			os.Exit(1)
		case <-done:
		}
	}()
	return sync.OnceFunc(func() {
		signal.Stop(c)
		close(done)
	})
}
