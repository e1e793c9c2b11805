package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/faelabs/fae"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"fae": main})
}

// TestScript runs the scripts in testdata/script against the fae binary.
// Besides testscript's commands they may use:
//
//	exits N CMD [ARGS...]   run CMD like exec; its exit status must be N
//	flip FILE OFFSET        flip the low bit of the byte at OFFSET (from the end if negative)
//	unhex IN OUT            write the bytes spelled in hex in IN (spaces and newlines ignored) to OUT
//	ls                      list the directory, one name a line, to stdout
//	argon2 FILE T M P       set the Argon2id cost in the header of the passphrase file FILE
//	killed SIG IN CMD...    (unix) run CMD with the file IN (- for none), then nothing more,
//	                        on standard input, send it SIG once it has made a temporary
//	                        file, and print how it ended; stderr is CMD's
//	survives SIG IN CMD...  (unix) the same, then close standard input after a moment
//
// and the conditions [race] (the race detector is on) and [root].
func TestScript(t *testing.T) {
	cmds := map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"exits":  exits,
		"flip":   flip,
		"unhex":  unhexCmd,
		"ls":     ls,
		"argon2": setArgon2,
	}
	maps.Copy(cmds, unixCmds)
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/script",
		Cmds: cmds,
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "race":
				return raceEnabled(), nil
			case "root":
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// raceEnabled reports whether the test binary has the race detector.
func raceEnabled() bool {
	info, _ := debug.ReadBuildInfo()
	return info != nil && slices.Contains(info.Settings, debug.BuildSetting{Key: "-race", Value: "true"})
}

func ls(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: ls")
	}
	entries, err := os.ReadDir(ts.MkAbs("."))
	ts.Check(err)
	for _, e := range entries {
		fmt.Fprintln(ts.Stdout(), e.Name())
	}
}

// setArgon2 rewrites the Argon2id cost in a passphrase file's header,
// which then fails its MAC, as a hostile file would.
func setArgon2(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: argon2 FILE TIME MEMORY THREADS")
	}
	b := []byte(ts.ReadFile(args[0]))
	var p [3]uint64
	for i, a := range args[1:] {
		var err error
		p[i], err = strconv.ParseUint(a, 10, 32)
		ts.Check(err)
	}
	at := 8 + 1 + 1 + int(b[9]) + 1 // magic, version, name, chunk size
	if b[at] != 2 {
		ts.Fatalf("%s is not a passphrase file", args[0])
	}
	binary.BigEndian.PutUint32(b[at+1:], uint32(p[0]))
	binary.BigEndian.PutUint32(b[at+5:], uint32(p[1]))
	b[at+9] = byte(p[2])
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o666))
}

func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	var exitErr *exec.ExitError
	if err := ts.Exec(args[1], args[2:]...); errors.As(err, &exitErr) {
		got = exitErr.ExitCode()
	} else {
		ts.Check(err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

func flip(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: flip FILE OFFSET")
	}
	b := []byte(ts.ReadFile(args[0]))
	i, err := strconv.Atoi(args[1])
	ts.Check(err)
	if i < 0 {
		i += len(b)
	}
	if i < 0 || i >= len(b) {
		ts.Fatalf("offset %s outside the %d bytes of %s", args[1], len(b), args[0])
	}
	b[i] ^= 1
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o666))
}

func unhexCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: unhex IN OUT")
	}
	b, err := hex.DecodeString(strings.Join(strings.Fields(ts.ReadFile(args[0])), ""))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b, 0o666))
}

// fae runs the command line in-process.
func runFae(stdin []byte, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestList(t *testing.T) {
	code, out, errOut := runFae(nil, "list")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	infos := fae.Algorithms()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(infos) {
		t.Fatalf("%d lines for %d algorithms:\n%s", len(lines), len(infos), out)
	}
	var starts []int // where each column starts, from the first line
	for i, line := range lines {
		fields := strings.Fields(line)
		if len(fields) < 5 || fields[0] != infos[i].Name || fields[1] != strconv.Itoa(infos[i].KeySize) ||
			strings.Join(fields[4:], " ") != infos[i].Note {
			t.Errorf("line %d does not describe %s: %q", i, infos[i].Name, line)
			continue
		}
		var at []int
		rest := line
		for _, f := range fields[:5] {
			j := strings.Index(rest, f)
			at = append(at, len(line)-len(rest)+j)
			rest = rest[j+len(f):]
		}
		if starts == nil {
			starts = at
		} else if !slices.Equal(at, starts) {
			t.Errorf("columns of line %d start at %v, not %v as above:\n%s", i, at, starts, out)
		}
	}
	if !slices.IsSorted(lines) {
		t.Errorf("not sorted:\n%s", out)
	}
}

func TestSizes(t *testing.T) {
	for _, c := range []struct {
		in   []int
		def  int
		want string
	}{
		{[]int{12}, 12, "12"},
		{[]int{16, 32}, 16, "16,32(16)"},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 12, "1..15(12)"},
		{[]int{4, 6, 8, 10, 12, 14, 16}, 16, "4,6,..,16(16)"},
		{[]int{4, 6, 8}, 8, "4,6,8(8)"},
	} {
		if got := sizeList(c.in, c.def); got != c.want {
			t.Errorf("sizeList(%v, %d) = %q, want %q", c.in, c.def, got, c.want)
		}
	}
}

// TestEveryAlgorithm seals and opens with every registered algorithm and
// each of its tag sizes.
func TestEveryAlgorithm(t *testing.T) {
	msg := []byte("a message of some length, longer than one block\n")
	for _, info := range fae.Algorithms() {
		for _, tagSize := range info.TagSizes {
			key := hex.EncodeToString(bytes.Repeat([]byte{0x4b}, info.KeySize))
			nonce := strings.ToUpper(hex.EncodeToString(bytes.Repeat([]byte{0x17}, info.NonceSize)))
			args := []string{"-a", info.Name, "--key", key, "--nonce", nonce, "--ad", "0a0B", "--tag-size", strconv.Itoa(tagSize)}
			code, sealed, errOut := runFae(msg, append([]string{"seal"}, args...)...)
			if code != 0 || len(sealed) != len(msg)+tagSize {
				t.Fatalf("%s, tag %d: seal: exit %d, %d bytes, stderr %q", info.Name, tagSize, code, len(sealed), errOut)
			}
			code, opened, errOut := runFae([]byte(sealed), append([]string{"open"}, args...)...)
			if code != 0 || opened != string(msg) {
				t.Fatalf("%s, tag %d: open: exit %d, stderr %q", info.Name, tagSize, code, errOut)
			}
		}
	}
}

// TestErrors checks the exit status of failures and that each writes one
// line, prefixed "fae: ", to stderr and nothing to stdout.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	shortKey := dir + "/short.key"
	if err := os.WriteFile(shortKey, make([]byte, 15), 0o600); err != nil {
		t.Fatal(err)
	}
	key := strings.Repeat("00", 16)
	nonce := strings.Repeat("00", 12)
	sealed := func() []byte {
		_, out, _ := runFae([]byte("hello"), "seal", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce)
		return []byte(out)
	}()
	for _, c := range []struct {
		code  int
		stdin []byte
		args  []string
	}{
		{2, nil, []string{"frobnicate"}},
		{2, nil, []string{"help", "frobnicate"}},
		{2, nil, []string{"list", "extra"}},
		{2, nil, []string{"seal", "--key", key, "--nonce", nonce}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--nonce", nonce}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key, "--key-file", shortKey, "--nonce", nonce}},
		{2, nil, []string{"seal", "-a", "no-such-alg", "--key", key, "--nonce", nonce}},
		{2, nil, []string{"seal", "-a", "no-such-alg", "--key-file", shortKey, "--nonce", nonce}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key + "00", "--nonce", nonce}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", "zz" + key[2:], "--nonce", nonce}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce[1:]}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key, "--nonce", strings.Repeat("00", 1025)}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce, "--ad", "x"}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce, "--tag-size", "8"}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce, "--tag-size", "big"}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key-file", shortKey, "--nonce", nonce}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce, "--bogus"}},
		{2, nil, []string{"seal", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce, "input.txt"}},
		{1, nil, []string{"seal", "-a", "aes-128-gcm", "--key-file", dir + "/missing", "--nonce", nonce}},
		{1, sealed, []string{"open", "-a", "aes-128-gcm", "--key", "01" + key[2:], "--nonce", nonce}},
		{1, sealed, []string{"open", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce, "--ad", "00"}},
		{1, sealed[:len(sealed)-1], []string{"open", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce}},
		{1, sealed[:3], []string{"open", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce}},
		{1, nil, []string{"open", "-a", "aes-128-gcm", "--key", key, "--nonce", nonce}},
	} {
		code, out, errOut := runFae(c.stdin, c.args...)
		name := fmt.Sprint(c.args)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d (stderr %q)", name, code, c.code, errOut)
		}
		if out != "" {
			t.Errorf("%s: wrote %q to stdout", name, out)
		}
		if !strings.HasPrefix(errOut, "fae: ") || strings.Count(errOut, "\n") != 1 || !strings.HasSuffix(errOut, "\n") {
			t.Errorf("%s: stderr is not one line prefixed \"fae: \": %q", name, errOut)
		}
	}
}

func TestHelp(t *testing.T) {
	code, _, errOut := runFae(nil)
	if code != 2 || !strings.Contains(errOut, "Usage:") {
		t.Errorf("no arguments: exit %d, stderr %q", code, errOut)
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		code, out, _ := runFae(nil, args...)
		if code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
		for _, c := range commands {
			if !strings.Contains(out, "fae "+c.name) {
				t.Errorf("%v: usage does not mention %s", args, c.name)
			}
		}
		// Commands of the spec that do not exist yet must not appear.
		for _, name := range []string{"bench", "keygen", "encrypt", "decrypt", "cat"} {
			if lookup(name) == nil && strings.Contains(out, "fae "+name) {
				t.Errorf("%v: usage offers %s, which is not implemented", args, name)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "seal"}, "Usage: fae seal --alg NAME"},
		{[]string{"seal", "-h"}, "Usage: fae seal --alg NAME"},
		{[]string{"open", "--help"}, "Usage: fae open --alg NAME"},
		{[]string{"help", "list"}, "Usage: fae list\n"},
	} {
		code, out, _ := runFae(nil, c.args...)
		if code != 0 || !strings.HasPrefix(out, c.want) {
			t.Errorf("%v: exit %d, stdout %q", c.args, code, out)
		}
	}
}
