package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/faelabs/fae"
	"github.com/faelabs/fae/stream"
)

// Small chunks make files of several chunks small, and a cheap Argon2id
// makes passphrases quick. The hooks hold for the scripts too, which run
// this test binary as fae.
func init() {
	chunkSize = stream.MinChunkSize
	argon2Cost = stream.Argon2idParams{Time: 1, Memory: 64, Threads: 1}
}

const cs = stream.MinChunkSize

// fileTest is a temporary directory with a key file, a passphrase file and
// plaintexts.
type fileTest struct {
	t   *testing.T
	dir string
}

func newFileTest(t *testing.T) *fileTest {
	ft := &fileTest{t, t.TempDir()}
	ft.write("key", bytes.Repeat([]byte{0x5a}, 32))
	ft.write("other.key", bytes.Repeat([]byte{0xa5}, 32))
	ft.write("short.key", make([]byte, 31))
	ft.write("pass", []byte("a passphrase\n"))
	ft.write("wrong.pass", []byte("a passphrase!\n"))
	return ft
}

func (ft *fileTest) path(name string) string { return filepath.Join(ft.dir, name) }

func (ft *fileTest) write(name string, b []byte) {
	ft.t.Helper()
	if err := os.WriteFile(ft.path(name), b, 0o600); err != nil {
		ft.t.Fatal(err)
	}
}

func (ft *fileTest) read(name string) []byte {
	ft.t.Helper()
	b, err := os.ReadFile(ft.path(name))
	if err != nil {
		ft.t.Fatal(err)
	}
	return b
}

// run runs fae with args, in which names of the directory's files, and of
// files to be, are written @name.
func (ft *fileTest) run(stdin []byte, args ...string) (code int, stdout, stderr string) {
	args = slices.Clone(args)
	for i, a := range args {
		if name, ok := strings.CutPrefix(a, "@"); ok {
			args[i] = ft.path(name)
		}
	}
	return runFae(stdin, args...)
}

// mustRun runs fae and fails the test unless it exits 0, silently.
func (ft *fileTest) mustRun(stdin []byte, args ...string) string {
	ft.t.Helper()
	code, out, errOut := ft.run(stdin, args...)
	if code != 0 || errOut != "" {
		ft.t.Fatalf("%v: exit %d, stderr %q", args, code, errOut)
	}
	return out
}

// mustFail runs fae, expects exit status code and one line on stderr that
// contains want, and nothing on stdout.
func (ft *fileTest) mustFail(code int, want string, stdin []byte, args ...string) {
	ft.t.Helper()
	got, out, errOut := ft.run(stdin, args...)
	if got != code || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 || out != "" {
		ft.t.Fatalf("%v: exit %d, stdout %d bytes, stderr %q; want exit %d and %q", args, got, len(out), errOut, code, want)
	}
}

// files lists the directory, so that tests can check nothing is left
// behind.
func (ft *fileTest) files() []string {
	ft.t.Helper()
	entries, err := os.ReadDir(ft.dir)
	if err != nil {
		ft.t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func plain(n int) []byte {
	b := make([]byte, n)
	rand.NewChaCha8([32]byte{byte(n), byte(n >> 8), byte(n >> 16)}).Read(b)
	return b
}

func TestKeygen(t *testing.T) {
	ft := newFileTest(t)
	ft.mustRun(nil, "keygen", "-o", "@new.key")
	key := ft.read("new.key")
	if fi, _ := os.Stat(ft.path("new.key")); len(key) != 32 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%d bytes, mode %v", len(key), fi.Mode())
	}
	ft.mustFail(1, "exists", nil, "keygen", "-o", "@new.key")
	if !bytes.Equal(ft.read("new.key"), key) {
		t.Fatal("keygen replaced a key")
	}
	out := ft.mustRun(nil, "keygen")
	if len(out) != 32 || out == string(key) {
		t.Fatalf("keygen to stdout: %x", out)
	}
	ft.mustFail(2, "unexpected argument", nil, "keygen", "extra")
	ft.mustFail(2, "flag provided but not defined", nil, "keygen", "--force")
}

func TestEncryptDecrypt(t *testing.T) {
	ft := newFileTest(t)
	before := ft.files()
	for _, n := range []int{0, 1, cs - 1, cs, cs + 1, 5*cs + 3} {
		pt := plain(n)
		ft.write("plain", pt)
		for _, keyArgs := range [][]string{{"--key-file", "@key"}, {"--passphrase-file", "@pass"}} {
			// Files, with flags after the input.
			ft.mustRun(nil, slices.Concat([]string{"encrypt", "@plain"}, keyArgs, []string{"-o", "@plain.fae"})...)
			ft.mustRun(nil, slices.Concat([]string{"decrypt"}, keyArgs, []string{"-o", "@out", "@plain.fae"})...)
			if !bytes.Equal(ft.read("out"), pt) {
				t.Fatalf("%d bytes, %v: files differ", n, keyArgs)
			}
			// Standard input and output.
			ct := ft.mustRun(pt, slices.Concat([]string{"encrypt"}, keyArgs)...)
			if got := ft.mustRun([]byte(ct), slices.Concat([]string{"decrypt"}, keyArgs, []string{"-"})...); got != string(pt) {
				t.Fatalf("%d bytes, %v: standard output differs", n, keyArgs)
			}
			if want := 16 * max(1, (n+cs-1)/cs); len(ct) <= n+want || len(ct) > n+want+200 {
				t.Fatalf("%d bytes: %d encrypted", n, len(ct))
			}
			os.Remove(ft.path("plain.fae"))
			os.Remove(ft.path("out"))
		}
	}
	if got, want := ft.files(), append(before, "plain"); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("files left: %v", got)
	}
}

func TestEncryptAlgorithms(t *testing.T) {
	ft := newFileTest(t)
	pt := plain(2*cs + 5)
	for _, alg := range []string{"aegis-256x4", "aes-256-ocb3", "chacha20-poly1305", "aes-256-gcm"} {
		ct := ft.mustRun(pt, "encrypt", "-a", alg, "--key-file", "@key")
		if !strings.Contains(ct[:30], alg) {
			t.Errorf("%s not in the header", alg)
		}
		if got := ft.mustRun([]byte(ct), "decrypt", "--key-file", "@key"); got != string(pt) {
			t.Errorf("%s: round trip failed", alg)
		}
	}
	if ct := ft.mustRun(pt, "encrypt", "--key-file", "@key"); !strings.Contains(ct[:30], stream.DefaultAlgorithm) {
		t.Errorf("the default algorithm is not %s", stream.DefaultAlgorithm)
	}
}

// TestDecryptFailures damages files in every way the format detects and
// checks that decrypt fails, names the chunk and leaves no output.
func TestDecryptFailures(t *testing.T) {
	ft := newFileTest(t)
	pt := plain(3*cs + 10) // four chunks
	ft.write("plain", pt)
	ft.mustRun(nil, "encrypt", "--key-file", "@key", "-o", "@good.fae", "@plain")
	ft.mustRun(nil, "encrypt", "--passphrase-file", "@pass", "-o", "@pass.fae", "@plain")
	good := ft.read("good.fae")
	full := cs + 16
	hs := len(good) - 3*full - 10 - 16
	chunk := func(i int) []byte { return good[hs+i*full : min(len(good), hs+(i+1)*full)] }
	before := ft.files()

	check := func(what string, code int, want string, args ...string) {
		t.Helper()
		ft.mustFail(code, want, nil, append(args, "-o", "@out")...)
		got := slices.DeleteFunc(ft.files(), func(name string) bool { return name == "bad.fae" })
		if !slices.Equal(got, before) {
			t.Fatalf("%s: files left behind: %v", what, got)
		}
	}
	damaged := func(what string, b []byte, want string) {
		t.Helper()
		ft.write("bad.fae", b)
		check(what, 1, want, "decrypt", "--key-file", "@key", "@bad.fae")
		os.Remove(ft.path("bad.fae"))
	}

	check("wrong key", 1, "wrong key", "decrypt", "--key-file", "@other.key", "@good.fae")
	check("wrong passphrase", 1, "wrong passphrase", "decrypt", "--passphrase-file", "@wrong.pass", "@pass.fae")
	check("key for a passphrase", 1, "encrypted with a passphrase", "decrypt", "--key-file", "@key", "@pass.fae")
	check("passphrase for a key", 1, "encrypted with a key", "decrypt", "--passphrase-file", "@pass", "@good.fae")
	check("missing input", 1, "no such file", "decrypt", "--key-file", "@key", "@nothing.fae")
	for i := range 4 {
		for _, off := range []int{0, len(chunk(i)) / 2, len(chunk(i)) - 1} {
			b := slices.Clone(good)
			b[hs+i*full+off] ^= 4
			damaged(fmt.Sprintf("chunk %d flipped", i), b, fmt.Sprintf("chunk %d failed", i))
		}
		damaged(fmt.Sprintf("cut before chunk %d", i), good[:hs+i*full], fmt.Sprintf("chunk %d failed", max(i-1, 0)))
		damaged(fmt.Sprintf("cut inside chunk %d", i), good[:hs+i*full+9], fmt.Sprintf("chunk %d failed", i))
	}
	for _, off := range []int{0, 9, 20, hs - 1} {
		b := slices.Clone(good)
		b[off] ^= 1
		damaged(fmt.Sprintf("header byte %d flipped", off), b, "")
	}
	damaged("header cut", good[:hs-1], "truncated header")
	damaged("chunks swapped", slices.Concat(good[:hs], chunk(1), chunk(0), chunk(2), chunk(3)), "chunk 0 failed")
	damaged("chunk duplicated", slices.Concat(good[:hs], chunk(0), chunk(1), chunk(1), chunk(2), chunk(3)), "chunk 2 failed")
	damaged("data appended", append(slices.Clone(good), 0), "chunk 3 failed")
	damaged("not encrypted", pt, "not a fae encrypted file")

	// On standard output the verified chunks come out, then the error.
	code, out, errOut := ft.run(good[:hs+2*full], "decrypt", "--key-file", "@key")
	if code != 1 || out != string(pt[:cs]) || !strings.Contains(errOut, "chunk 1 failed") {
		t.Errorf("cut file on standard output: exit %d, %d bytes, %q", code, len(out), errOut)
	}
}

func TestOutputExists(t *testing.T) {
	ft := newFileTest(t)
	ft.write("plain", []byte("some plaintext"))
	ft.write("out", []byte("precious"))
	ft.mustFail(1, "exists; use --force", nil, "encrypt", "--key-file", "@key", "-o", "@out", "@plain")
	ft.mustFail(1, "exists; use --force", nil, "decrypt", "--key-file", "@key", "-o", "@out", "@plain")
	if string(ft.read("out")) != "precious" {
		t.Fatal("output replaced without --force")
	}
	ft.mustRun(nil, "encrypt", "--key-file", "@key", "-o", "@out.fae", "@plain")
	ft.mustRun(nil, "decrypt", "--key-file", "@key", "-o", "@out", "--force", "@out.fae")
	if string(ft.read("out")) != "some plaintext" {
		t.Fatal("--force did not replace the output")
	}
	// A failure with --force leaves the old file.
	ft.mustFail(1, "not a fae encrypted file", nil, "decrypt", "--key-file", "@key", "-o", "@out", "--force", "@plain")
	if string(ft.read("out")) != "some plaintext" {
		t.Fatal("failed decrypt replaced the output")
	}
	if got := ft.files(); len(got) != 8 {
		t.Errorf("files: %v", got)
	}
}

func TestFileUsageErrors(t *testing.T) {
	ft := newFileTest(t)
	ft.write("plain", []byte("x"))
	for _, args := range [][]string{
		{"encrypt", "@plain"},
		{"encrypt", "--key-file", "@key", "--passphrase-file", "@pass", "@plain"},
		{"encrypt", "--key-file", "@key", "-p", "@plain"},
		{"encrypt", "--key-file", "@short.key", "@plain"},
		{"encrypt", "--key-file", "@key", "-a", "no-such-alg", "@plain"},
		{"encrypt", "--key-file", "@key", "-a", "aes-128-gcm", "@plain"},
		{"encrypt", "--key-file", "@key", "-a", "aegis-128l", "@plain"},
		{"encrypt", "--key-file", "@key", "@plain", "@plain"},
		{"encrypt", "--key-file", "@key", "--bogus", "@plain"},
		{"encrypt", "--passphrase-file", "@empty", "@plain"},
		{"decrypt", "@plain"},
		{"decrypt", "--key-file", "@short.key", "@plain"},
		{"cat", "--key-file", "@key", "--offset", "0", "@plain"},
		{"cat", "--key-file", "@key", "--length", "1", "@plain"},
		{"cat", "--key-file", "@key", "--offset", "-1", "--length", "1", "@plain"},
		{"cat", "--key-file", "@key", "--offset", "x", "--length", "1", "@plain"},
		{"cat", "--key-file", "@key", "--offset", "0", "--length", "1"},
		{"cat", "--key-file", "@key", "--offset", "0", "--length", "1", "-"},
		{"cat", "--offset", "0", "--length", "1", "@plain"},
	} {
		ft.write("empty", nil)
		ft.mustFail(2, "", nil, args...)
	}
	if tty, err := os.Open("/dev/tty"); err == nil {
		tty.Close()
		t.Log("a terminal is at hand: -p is not tried")
	} else {
		ft.mustFail(2, "-p needs a terminal", nil, "encrypt", "-p", "@plain", "-o", "@out")
	}
	if got := ft.files(); slices.Contains(got, "out") || len(got) != 7 {
		t.Errorf("files: %v", got)
	}
}

func TestCat(t *testing.T) {
	ft := newFileTest(t)
	const n = 20*cs + 77
	pt := plain(n)
	ft.write("plain", pt)
	ft.mustRun(nil, "encrypt", "--key-file", "@key", "-o", "@plain.fae", "@plain")
	ft.mustRun(nil, "encrypt", "--passphrase-file", "@pass", "-o", "@pass.fae", "@plain")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		off, length := r.IntN(n+1), r.IntN(3*cs)
		if i%4 == 0 {
			length = r.IntN(n + 10)
		}
		file, keyArgs := "@plain.fae", []string{"--key-file", "@key"}
		if i%5 == 0 {
			file, keyArgs = "@pass.fae", []string{"--passphrase-file", "@pass"}
		}
		args := slices.Concat([]string{"cat", "--offset", strconv.Itoa(off), "--length", strconv.Itoa(length)}, keyArgs, []string{file})
		if got := ft.mustRun(nil, args...); got != string(pt[off:min(n, off+length)]) {
			t.Fatalf("%v: %d bytes differ", args, len(got))
		}
	}
	ft.mustFail(1, "past the end", nil, "cat", "--offset", strconv.Itoa(n+1), "--length", "1", "--key-file", "@key", "@plain.fae")
	ft.mustFail(1, "wrong key", nil, "cat", "--offset", "0", "--length", "1", "--key-file", "@other.key", "@plain.fae")

	// A damaged chunk fails the ranges over it, and only those.
	ct := ft.read("plain.fae")
	ct[len(ct)-(20*cs+77+21*16)+7*(cs+16)+3] ^= 1 // chunk 7
	ft.write("bad.fae", ct)
	ft.mustFail(1, "chunk 7 failed", nil, "cat", "--offset", strconv.Itoa(7*cs+5), "--length", "1", "--key-file", "@key", "@bad.fae")
	ft.mustFail(1, "chunk 7 failed", nil, "cat", "--offset", "0", "--length", strconv.Itoa(n), "--key-file", "@key", "@bad.fae")
	if got := ft.mustRun(nil, "cat", "--offset", strconv.Itoa(8*cs), "--length", "100", "--key-file", "@key", "@bad.fae"); got != string(pt[8*cs:8*cs+100]) {
		t.Errorf("range after the damaged chunk differs")
	}
	// Truncation shows, whatever the range.
	ft.write("cut.fae", ct[:len(ct)-(cs+16)-77-16])
	ft.mustFail(1, "chunk 18 failed", nil, "cat", "--offset", "0", "--length", "1", "--key-file", "@key", "@cut.fae")
}

// TestSync checks that a temporary file is synced before it is moved into
// place and its directory after, and that a failed sync fails the command
// and leaves no temporary file.
func TestSync(t *testing.T) {
	ft := newFileTest(t)
	ft.write("plain", []byte("some plaintext"))
	ft.mustRun(nil, "encrypt", "--key-file", "@key", "-o", "@plain.fae", "@plain")
	before := ft.files()
	defer func(f func(*os.File) error) { syncFile = f }(syncFile)
	var synced []string
	var fail func(fi os.FileInfo) bool
	syncFile = func(f *os.File) error {
		fi, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		synced = append(synced, f.Name())
		if fail != nil && fail(fi) {
			return errors.New("injected failure")
		}
		return nil
	}
	for _, args := range [][]string{
		{"encrypt", "--key-file", "@key", "-o", "@out", "@plain"},
		{"decrypt", "--key-file", "@key", "-o", "@out", "@plain.fae"},
		{"keygen", "-o", "@out"},
	} {
		synced, fail = nil, nil
		ft.mustRun(nil, args...)
		if len(synced) != 2 || filepath.Dir(synced[0]) != ft.dir || !strings.HasPrefix(filepath.Base(synced[0]), ".out.") || synced[1] != ft.dir {
			t.Errorf("%v: synced %q, want the temporary file then the directory", args, synced)
		}
		os.Remove(ft.path("out"))

		synced, fail = nil, func(fi os.FileInfo) bool { return !fi.IsDir() }
		ft.mustFail(1, "out: injected failure", nil, args...)
		if got := ft.files(); !slices.Equal(got, before) || len(synced) != 1 {
			t.Errorf("%v, file sync failing: synced %q, files %v", args, synced, got)
		}

		synced, fail = nil, os.FileInfo.IsDir
		ft.mustFail(1, "out is written, but syncing its directory failed: injected failure", nil, args...)
		if got := ft.files(); !slices.Contains(got, "out") || len(got) != len(before)+1 {
			t.Errorf("%v, directory sync failing: files %v", args, got)
		}
		os.Remove(ft.path("out"))
	}
	synced, fail = nil, nil
	ft.mustRun(nil, "encrypt", "--key-file", "@key", "@plain")
	ft.mustRun(nil, "encrypt", "--key-file", "@key", "-o", os.DevNull, "@plain")
	if len(synced) != 0 {
		t.Errorf("standard output and %s synced: %q", os.DevNull, synced)
	}
}

func TestTempName(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range []string{"a", "é", "日本"} {
		for n := 1; n <= 255/len(r); n++ {
			base := strings.Repeat(r, n)
			name := tempName(base)
			if len(name) > max(len(base), 28) || !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".tmp") ||
				!utf8.ValidString(name) || seen[name] {
				t.Fatalf("tempName(%d × %q) = %q", n, r, name)
			}
			seen[name] = true
		}
	}
}

// TestErrorsWrap checks that errors reworded for the command line still
// wrap the library's.
func TestErrorsWrap(t *testing.T) {
	var ce *stream.ChunkError
	if err := streamError(&stream.ChunkError{Index: 3}); !errors.As(err, &ce) || ce.Index != 3 || strings.HasPrefix(err.Error(), "stream:") {
		t.Errorf("chunk error: %v", err)
	}
	if err := streamError(stream.ErrWrongKey); !errors.Is(err, stream.ErrWrongKey) || strings.HasPrefix(err.Error(), "stream:") {
		t.Errorf("wrong key: %v", err)
	}
	_, lerr := fae.New("aes-128-gcm", nil)
	if err := libError(lerr); !errors.Is(err, lerr) || strings.HasPrefix(err.Error(), "fae:") {
		t.Errorf("fae.New error: %v", err)
	}
}

// TestCatHugeFile reads a sparse file of 2^63-1 bytes that starts with a
// header: the last chunk fails, with no panic.
func TestCatHugeFile(t *testing.T) {
	ft := newFileTest(t)
	ft.write("plain", []byte("x"))
	ft.mustRun(nil, "encrypt", "--key-file", "@key", "-o", "@plain.fae", "@plain")
	for _, dir := range []string{ft.dir, "/dev/shm"} {
		f, err := os.CreateTemp(dir, "huge")
		if err != nil {
			continue
		}
		defer os.Remove(f.Name())
		f.Write(ft.read("plain.fae"))
		err = f.Truncate(math.MaxInt64)
		f.Close()
		if err != nil {
			continue
		}
		ft.mustFail(1, "failed authentication", nil, "cat", "--key-file", "@key", "--offset", "0", "--length", "1", f.Name())
		return
	}
	t.Skip("no file system here holds a file of 2^63-1 bytes")
}

// TestDecimalFlags tries numbers that are not plain decimal, or out of
// range, on every numeric flag: each is a usage error.
func TestDecimalFlags(t *testing.T) {
	ft := newFileTest(t)
	ft.write("plain", []byte("The quick brown fox"))
	ft.mustRun(nil, "encrypt", "--key-file", "@key", "-o", "@plain.fae", "@plain")
	for _, v := range []string{"0x10", "0X10", "0o10", "0b10", "1_0", "+1", "-1", " 1", "1 ", "", "1e3", "١", "9223372036854775808"} {
		ft.mustFail(2, "want a decimal number from 0 to 9223372036854775807", nil, "cat", "--key-file", "@key", "--offset", v, "--length", "1", "@plain.fae")
		ft.mustFail(2, "want a decimal number from 0 to 9223372036854775807", nil, "cat", "--key-file", "@key", "--offset", "0", "--length", v, "@plain.fae")
		ft.mustFail(2, "want a decimal number from 1 to 16384", nil, "decrypt", "--key-file", "@key", "--max-kdf-memory", v, "@plain.fae")
		ft.mustFail(2, "want a decimal number from 0 to 2147483647", []byte("x"), "seal", "-a", "aes-256-gcm", "--key-file", "@key", "--nonce", "000000000000000000000000", "--tag-size", v)
	}
	ft.mustFail(2, "want a decimal number from 1 to 16384", nil, "decrypt", "--key-file", "@key", "--max-kdf-memory", "0", "@plain.fae")
	ft.mustFail(2, "want a decimal number from 1 to 16384", nil, "decrypt", "--key-file", "@key", "--max-kdf-memory", "16385", "@plain.fae")
	ft.mustFail(2, "want a decimal number from 0 to 2147483647", []byte("x"), "seal", "-a", "aes-256-gcm", "--key-file", "@key", "--nonce", "000000000000000000000000", "--tag-size", "2147483648")
	ft.mustFail(2, "tag size 0 not allowed", []byte("x"), "seal", "-a", "aes-256-gcm", "--key-file", "@key", "--nonce", "000000000000000000000000", "--tag-size", "0")
	if got := ft.mustRun(nil, "cat", "--key-file", "@key", "--offset", "00010", "--length", "099999999999999", "--max-kdf-memory", "016384", "@plain.fae"); got != "brown fox" {
		t.Errorf("leading zeros: %q", got)
	}
}

// TestOutputsInProcess tries outputs that are not files to replace, and
// inputs that are also outputs, on each command.
func TestOutputsInProcess(t *testing.T) {
	ft := newFileTest(t)
	ft.write("plain", []byte("some plaintext"))
	ft.mustRun(nil, "encrypt", "--key-file", "@key", "-o", "@plain.fae", "@plain")
	if err := os.Mkdir(ft.path("dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("plain", ft.path("file.link")); err != nil {
		t.Fatal(err)
	}
	before := ft.files()
	for _, c := range []struct {
		code int
		want string
		args []string
	}{
		{1, "dir is a directory", []string{"keygen", "-o", "@dir"}},
		{1, "dir is a directory", []string{"decrypt", "--key-file", "@key", "-o", "@dir", "--force", "@plain.fae"}},
		{1, "dir is a directory", []string{"encrypt", "--key-file", "@key", "-o", "@out", "@dir"}},
		{1, "file.link is a symbolic link", []string{"keygen", "-o", "@file.link"}},
		{1, "file.link is a symbolic link", []string{"decrypt", "--key-file", "@key", "--force", "-o", "@file.link", "@plain.fae"}},
		{1, "exists; keygen does not overwrite files", []string{"keygen", "-o", "@plain"}},
		{1, "creating a file in", []string{"keygen", "-o", "@nodir/key"}},
		{2, "-o: empty file name", []string{"keygen", "-o", ""}},
		{2, "-o: empty file name", []string{"decrypt", "--key-file", "@key", "-o", "", "@plain.fae"}},
		{2, "empty input file name", []string{"encrypt", "--key-file", "@key", ""}},
		{2, "is both the input and the output", []string{"decrypt", "--key-file", "@key", "--force", "-o", "@plain.fae", "@plain.fae"}},
		{2, "the key file", []string{"decrypt", "--key-file", "@key", "--force", "-o", "@key", "@plain.fae"}},
		{2, "the passphrase file", []string{"encrypt", "--passphrase-file", "@plain", "@plain"}},
		{1, "is not a regular file", []string{"cat", "--key-file", "@key", "--offset", "0", "--length", "1", os.DevNull}},
	} {
		ft.mustFail(c.code, c.want, nil, c.args...)
		if got := ft.files(); !slices.Equal(got, before) {
			t.Fatalf("%v: files %v", c.args, got)
		}
	}
	if string(ft.read("plain")) != "some plaintext" {
		t.Fatal("plain changed")
	}
	// Devices are written in place.
	ft.mustRun(nil, "keygen", "-o", os.DevNull)
	ft.mustRun(nil, "decrypt", "--key-file", "@key", "-o", os.DevNull, "@plain.fae")

	// Standard input or output that is the input.
	open := func(name string, flag int) *os.File {
		f, err := os.OpenFile(ft.path(name), flag, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	for _, c := range []struct {
		want  string
		stdin string
		out   string
		args  []string
	}{
		{"standard output is the input", "", "plain.fae", []string{"decrypt", "--key-file", ft.path("key"), ft.path("plain.fae")}},
		{"standard input and standard output are the same file", "plain.fae", "plain.fae", []string{"decrypt", "--key-file", ft.path("key")}},
		{"standard input and standard output are the same file", "plain", "plain", []string{"encrypt", "--key-file", ft.path("key"), "-"}},
		{"standard input and standard output are the same file", "plain.fae", "plain.fae", []string{"open", "-a", "aes-256-gcm", "--key-file", ft.path("key"), "--nonce", "000000000000000000000000"}},
		{"the key file", "", "key", []string{"decrypt", "--key-file", ft.path("key"), ft.path("plain.fae")}},
	} {
		var stdin io.Reader = bytes.NewReader(nil)
		if c.stdin != "" {
			stdin = open(c.stdin, os.O_RDONLY)
		}
		var errOut bytes.Buffer
		if code := run(c.args, stdin, open(c.out, os.O_WRONLY|os.O_APPEND), &errOut); code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
	if string(ft.read("plain")) != "some plaintext" || len(ft.read("key")) != 32 {
		t.Fatal("an input changed")
	}
}

// TestSealAD tries --ad-file's failures and the nonces that need no
// warning.
func TestSealAD(t *testing.T) {
	ft := newFileTest(t)
	ft.write("empty", nil)
	args := []string{"-a", "aes-256-gcm", "--key-file", "@key", "--nonce", "000102030405060708090a0b"}
	sealed := ft.mustRun([]byte("msg"), append([]string{"seal"}, args...)...)
	if got := ft.mustRun([]byte("msg"), append([]string{"seal", "--ad-file", "@empty"}, args...)...); got != sealed {
		t.Error("an empty --ad-file differs from no associated data")
	}
	ft.mustFail(1, "reading associated data: open", []byte("msg"), append([]string{"seal", "--ad-file", "@missing"}, args...)...)
	ft.mustFail(1, "authentication failed", []byte(sealed), append([]string{"open", "--ad-file", "@key"}, args...)...)
	ft.mustFail(2, "use --ad or --ad-file, not both", []byte(sealed), append([]string{"open", "--ad-file", "@empty", "--ad", ""}, args...)...)
	for _, c := range []struct {
		alg, nonce string
		warn       bool
	}{
		{"aes-128-ocb3", "010203040506", false},
		{"aes-256-ocb3", "01", true},
		{"lea-128-ocb3", "0102030405", true},
		{"raocb-aes-128", "010203040506", false},
		{"raocb-aes-192", "0102030405", true},
		{"aes-128-gcm", "000102030405060708090a0b", false},
	} {
		key := strings.Repeat("00", 16)
		if strings.Contains(c.alg, "256") {
			key += key
		} else if strings.Contains(c.alg, "192") {
			key += key[:16]
		}
		code, _, errOut := ft.run([]byte("msg"), "seal", "-a", c.alg, "--key", key, "--nonce", c.nonce)
		if code != 0 || strings.Contains(errOut, "warning: ") != c.warn || strings.Count(errOut, "\n") > 1 {
			t.Errorf("%s, nonce %s: exit %d, stderr %q", c.alg, c.nonce, code, errOut)
		}
	}
}
