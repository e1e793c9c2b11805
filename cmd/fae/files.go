package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

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

// A decimal is a numeric flag: decimal digits only, from min to max. The
// flag package's own integers take any base ("0100" is 64, "0x10" 16).
type decimal struct {
	v        *int64
	min, max int64
}

func decimalVar(fs *flag.FlagSet, v *int64, name string, min, max int64) {
	fs.Var(decimal{v, min, max}, name, "")
}

func (d decimal) Set(s string) error {
	n, err := parseDecimal(s)
	if err != nil || n < d.min || n > d.max {
		return fmt.Errorf("want a decimal number from %d to %d", d.min, d.max)
	}
	*d.v = n
	return nil
}

// parseDecimal reads a number written in decimal digits alone: no sign, base
// prefix or underscore. A leading zero is a decimal digit, as coreutils reads
// it ("0100" is 100), never an octal prefix.
func parseDecimal(s string) (int64, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, fmt.Errorf("bad number %q: decimal digits only", s)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q: too large", s)
	}
	return n, nil
}

func (d decimal) String() string {
	if d.v == nil {
		return ""
	}
	return strconv.FormatInt(*d.v, 10)
}

// isSet reports whether the flag name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// stat returns the FileInfo of r or w if it is an *os.File, or nil.
func stat(rw any) fs.FileInfo {
	if f, ok := rw.(*os.File); ok {
		if fi, err := f.Stat(); err == nil {
			return fi
		}
	}
	return nil
}

// holdsData reports whether fi is a file whose contents writing destroys:
// a regular file or a block device, unlike a FIFO or a terminal.
func holdsData(fi fs.FileInfo) bool {
	return fi.Mode().IsRegular() || fi.Mode()&(fs.ModeDevice|fs.ModeCharDevice) == fs.ModeDevice
}

// sameFile reports whether a and b are one file that holds data, as when
// "fae encrypt f >> f" would read what it writes.
func sameFile(a, b fs.FileInfo) bool {
	return a != nil && b != nil && holdsData(a) && os.SameFile(a, b)
}

// An output is where encrypt, decrypt and keygen write: standard output; a
// device or FIFO, written in place; or, for a file, a new temporary file
// beside it that commit moves into place and abort removes, as does a
// signal that ends fae.
type output struct {
	w       io.Writer // nil until create, but for standard output
	path    string
	info    fs.FileInfo // what is at path (links followed), or standard output; nil if nothing
	inPlace bool        // path is a device or FIFO, written in place
	force   bool
	hint    string   // why an existing file stays, for errors
	file    *os.File // the file written: temporary, or the device or FIFO
	tmp     bool     // file is a temporary file
	cancel  func()   // ends the removal of the temporary file on a signal
}

// planOutput checks what is at path ("" or "-" for stdout) before any
// work: a file may be replaced only with force, and never through a
// symbolic link; a block device is written in place with force; a
// character device, FIFO or socket is written in place. hint says what to
// do about a file that stays.
func planOutput(path string, force bool, hint string, stdout io.Writer) (*output, error) {
	o := &output{path: path, force: force, hint: hint}
	if path == "" || path == "-" {
		o.path, o.w, o.info = "", stdout, stat(stdout)
		return o, nil
	}
	lfi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return o, nil
	} else if err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s is a symbolic link to nothing: %w", path, err)
	}
	o.info = fi
	m := fi.Mode()
	switch {
	case m.IsDir():
		return nil, fmt.Errorf("%s is a directory", path)
	case lfi.Mode()&fs.ModeSymlink != 0 && holdsData(fi):
		return nil, fmt.Errorf("%s is a symbolic link; give the name of the file it points to", path)
	case m.IsRegular() && !force:
		return nil, existsError(path, hint)
	case m.IsRegular():
	case holdsData(fi) && !force:
		return nil, fmt.Errorf("%s is a block device; %s", path, hint)
	case m&(fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0:
		o.inPlace = true
	default:
		return nil, fmt.Errorf("%s is not a file, a device or a FIFO", path)
	}
	return o, nil
}

func existsError(path, hint string) error {
	return fmt.Errorf("%s exists; %s", path, hint)
}

// notInput refuses an output that is the input, whose name is in.
func (o *output) notInput(in fs.FileInfo, name string) error {
	switch {
	case !sameFile(in, o.info):
	case o.path != "":
		return usageErrorf("%s is both the input and the output", o.path)
	case name == "-":
		return usageErrorf("standard input and standard output are the same file")
	default:
		return usageErrorf("standard output is the input, %s", name)
	}
	return nil
}

// create opens the output for writing.
func (o *output) create() error {
	switch {
	case o.w != nil:
		return nil
	case o.inPlace:
		f, err := os.OpenFile(o.path, os.O_WRONLY|noCTTY, 0)
		if err != nil {
			return err
		}
		if fi, err := f.Stat(); err != nil || !os.SameFile(fi, o.info) {
			f.Close()
			return fmt.Errorf("%s changed while fae was starting", o.path)
		}
		o.w, o.file = f, f
		return nil
	}
	dir := filepath.Dir(o.path)
	watch()
	for range 100 {
		// Under the lock, so that a signal's handler waits until the new
		// file's removal is registered.
		interrupts.Lock()
		f, err := os.OpenFile(filepath.Join(dir, tempName(filepath.Base(o.path))), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			o.w, o.file, o.tmp = f, f, true
			o.cancel = interrupts.add(func() { os.Remove(f.Name()) })
		}
		interrupts.Unlock()
		var pe *fs.PathError
		switch {
		case errors.Is(err, fs.ErrExist):
			continue
		case errors.As(err, &pe):
			return fmt.Errorf("creating a file in %s: %w", dir, pe.Err)
		}
		return err
	}
	return fmt.Errorf("creating a file in %s: too many files with the names fae gives temporary files", dir)
}

// Write writes to the output.
func (o *output) Write(b []byte) (int, error) {
	n, err := o.w.Write(b)
	return n, o.writeError(err)
}

// writeError names the output, not a temporary file, in an error.
func (o *output) writeError(err error) error {
	if err == nil {
		return nil
	}
	name := cmp.Or(o.path, "standard output")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return relabel(fmt.Sprintf("writing %s: %v", name, pe.Err), err)
	}
	return fmt.Errorf("writing %s: %w", name, err)
}

// toTerminal reports whether the output is a terminal.
func (o *output) toTerminal() bool { return isTerminal(o.w) }

// tempName returns a hidden name, random, beside base, made of a prefix of
// base: no longer than base (or 28 bytes), so that it fits wherever base
// does.
func tempName(base string) string {
	suffix := fmt.Sprintf(".%08x.tmp", rand.Uint32())
	keep := max(len(base), 28) - 1 - len(suffix)
	for keep < len(base) && !utf8.RuneStart(base[keep]) {
		keep--
	}
	return "." + base[:min(keep, len(base))] + suffix
}

// abort ends a failed output: the temporary file is removed, a device or
// FIFO closed with what was written left in it.
func (o *output) abort() {
	if o.file == nil {
		return
	}
	o.file.Close()
	if o.tmp {
		os.Remove(o.file.Name())
		o.cancel()
	}
}

// Test hook: syncFile makes what was written to a file, or a directory's
// entries, durable.
var syncFile = (*os.File).Sync

// commit completes the output. A temporary file is synced, closed and
// moved to the output's path, whose directory is then synced. Without
// force it is linked there, which fails if the path exists, so that a file
// made since planOutput is not replaced either; where links fail it checks
// and renames.
func (o *output) commit() error {
	switch {
	case o.file == nil:
		return nil
	case !o.tmp:
		var err error
		if holdsData(o.info) {
			err = syncFile(o.file)
		}
		if cerr := o.file.Close(); err == nil {
			err = cerr
		}
		return o.writeError(err)
	}
	name := o.file.Name()
	err := syncFile(o.file)
	if cerr := o.file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		o.cancel()
		return o.writeError(err)
	}
	// Under the lock: a signal's handler that came first has removed the
	// temporary file and holds the lock until fae ends; one that comes
	// later removes a name already gone.
	interrupts.Lock()
	switch {
	case o.force:
		err = os.Rename(name, o.path)
	default:
		err = os.Link(name, o.path)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			if _, serr := os.Lstat(o.path); serr == nil {
				err = fs.ErrExist
			} else {
				err = os.Rename(name, o.path)
			}
		}
		if errors.Is(err, fs.ErrExist) {
			err = existsError(o.path, o.hint)
		}
	}
	os.Remove(name)
	interrupts.Unlock()
	o.cancel()
	if err != nil {
		return err
	}
	if err := syncDir(filepath.Dir(o.path)); err != nil {
		return fmt.Errorf("%s is written, but syncing its directory failed: %w", o.path, err)
	}
	return nil
}
