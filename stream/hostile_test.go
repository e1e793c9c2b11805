package stream

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
)

// withCost returns a passphrase file's header and body with its Argon2id
// cost replaced, and so a MAC that no longer verifies.
func withCost(t *testing.T, p Argon2idParams) []byte {
	t.Helper()
	ct := encrypt(t, Header{ChunkSize: small, Passphrase: true, Argon2id: cheapCost}, testPass, []byte("x"), 1)
	h := parse(t, ct)
	h.Argon2id = p
	raw := h.marshal()
	if len(raw) != len(h.raw) {
		t.Fatal("the header changed length")
	}
	return append(raw, ct[len(raw):]...)
}

// TestLimits checks that headers asking for more Argon2id work than the
// reader's Limits allow fail with a *CostError, before any of it is done,
// and that the limits can be raised.
func TestLimits(t *testing.T) {
	for _, c := range []struct {
		cost  Argon2idParams
		limit uint32
		need  uint32 // 0: within the limit
	}{
		{Argon2idParams{Time: 16, Memory: 4 << 20, Threads: 4}, 0, 16 << 20},
		{Argon2idParams{Time: 1, Memory: 1<<20 + 1, Threads: 4}, 0, 1<<20 + 1},
		{Argon2idParams{Time: 5, Memory: 1 << 20, Threads: 4}, 0, 5 << 18},
		{Argon2idParams{Time: 16, Memory: 256<<10 + 1, Threads: 4}, 0, 1<<20 + 4},
		{Argon2idParams{Time: 4, Memory: 64, Threads: 1}, 64, 0},
		{Argon2idParams{Time: 5, Memory: 64, Threads: 1}, 64, 80},
		{Argon2idParams{Time: 1, Memory: 65, Threads: 1}, 64, 65},
		{Argon2idParams{Time: 16, Memory: 16, Threads: 1}, 64, 0},
		{Argon2idParams{Time: 16, Memory: 17, Threads: 1}, 64, 68},
	} {
		ct := withCost(t, c.cost)
		l := Limits{Argon2idMemory: c.limit}
		_, err := l.NewReader(bytes.NewReader(ct), testPass)
		_, err2 := l.NewReaderAt(bytes.NewReader(ct), int64(len(ct)), testPass)
		var ce *CostError
		switch {
		case c.need == 0 && (err != ErrWrongPassphrase || err2 != ErrWrongPassphrase):
			t.Errorf("%+v under %d KiB: %v, %v; want the MAC checked", c.cost, c.limit, err, err2)
		case c.need != 0 && (!errors.As(err, &ce) || ce.Need != c.need || ce.Cost != c.cost || fmtErr(err) != fmtErr(err2)):
			t.Errorf("%+v under %d KiB: %v (%+v), %v; want a *CostError needing %d KiB", c.cost, c.limit, err, ce, err2, c.need)
		}
		if c.limit == 0 {
			if _, err := NewReader(bytes.NewReader(ct), testPass); fmtErr(err) != fmtErr(err2) {
				t.Errorf("%+v: NewReader: %v, want %v", c.cost, err, err2)
			}
		}
	}
	// What fae writes by default reads under the default limits.
	if err := (Limits{}).check(&header{Header: Header{Passphrase: true, Argon2id: defaultArgon2id}}); err != nil {
		t.Errorf("the default cost %+v: %v", defaultArgon2id, err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestCanAllocate(t *testing.T) {
	if err := canAllocate(1 << 20); err != nil {
		t.Errorf("1 MiB: %v", err)
	}
	if err := canAllocate(math.MaxUint64 >> 1); err == nil {
		t.Errorf("2^63 bytes: no error")
	}
}

// sparseFile is a file of size bytes that starts with data, ends with
// tail and holds zeros between them, as a sparse file does.
type sparseFile struct {
	data []byte
	size int64
	tail []byte
}

func (f *sparseFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= f.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), f.size-off))
	clear(p[:n])
	if off < int64(len(f.data)) {
		copy(p[:n], f.data[off:])
	}
	if t := f.size - int64(len(f.tail)); off+int64(n) > t {
		at := max(t, off)
		copy(p[at-off:n], f.tail[at-t:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestReaderAtHugeSize opens files whose size is within a chunk or two of
// 2^63, past the encrypted data: the last chunk fails, with no overflow.
func TestReaderAtHugeSize(t *testing.T) {
	ct := encrypt(t, Header{ChunkSize: small}, testKey, plaintext(100), 1)
	full := int64(small + 16)
	for _, size := range []int64{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 - full + 1, math.MaxInt64 - full,
		math.MaxInt64 - 2*full - 5, 1 << 62} {
		_, err := NewReaderAt(&sparseFile{ct, size, nil}, size, testKey)
		var ce *ChunkError
		if !errors.As(err, &ce) {
			t.Errorf("size %d: %v, want a *ChunkError", size, err)
		}
	}
}

// TestReaderAtHugeFile reads the end of a file of almost 2^63 bytes whose
// header and last chunk are authentic, the rest zeros: the offsets near
// its end must not overflow.
func TestReaderAtHugeFile(t *testing.T) {
	chunks := []int{MinChunkSize, MaxChunkSize}
	if testing.Short() {
		chunks = chunks[:1] // a read of a 64 MiB chunk is slow under emulation
	}
	for _, chunk := range chunks {
		h, err := newHeader(Header{Algorithm: "aes-256-gcm", ChunkSize: chunk})
		if err != nil {
			t.Fatal(err)
		}
		mac, s, err := h.keys(testKey)
		if err != nil {
			t.Fatal(err)
		}
		head := append(h.raw, mac...)
		full := int64(chunk + s.tag)
		// The largest size whose last chunk holds 10 bytes, and, with small
		// chunks, sizes whose last chunk is longer.
		sizes := []int64{int64(len(head)) + (math.MaxInt64-int64(len(head))-int64(s.tag)-10)/full*full + int64(s.tag) + 10}
		if chunk == MinChunkSize {
			sizes = append(sizes, math.MaxInt64, math.MaxInt64-int64(chunk)-7)
		}
		for _, size := range sizes {
			body := size - int64(len(head))
			n := (body - 1) / full // chunks before the last
			last := plaintext(int(body - n*full - int64(s.tag)))
			tail := s.aead.Seal(nil, s.nonce(s.newNonce(), uint64(n), true), last, nil)
			ra, err := NewReaderAt(&sparseFile{head, size, tail}, size, testKey)
			if err != nil {
				t.Fatalf("chunk %d, size %d: %v", chunk, size, err)
			}
			plain := ra.(interface{ Size() int64 }).Size()
			if want := n*int64(chunk) + int64(len(last)); plain != want {
				t.Fatalf("chunk %d, size %d: Size() = %d, want %d", chunk, size, plain, want)
			}
			p := make([]byte, 10)
			if k, err := ra.ReadAt(p, plain-5); k != 5 || err != io.EOF || !bytes.Equal(p[:5], last[len(last)-5:]) {
				t.Errorf("chunk %d, size %d: ReadAt at the end: %d, %v", chunk, size, k, err)
			}
			var ce *ChunkError
			if k, err := ra.ReadAt(p, plain-int64(len(last))-5); k != 0 || !errors.As(err, &ce) || ce.Index != uint64(n-1) {
				t.Errorf("chunk %d, size %d: ReadAt across a zeroed chunk: %d, %v", chunk, size, k, err)
			}
		}
	}
}

// TestShortInputs checks what inputs too short for a header are called.
func TestShortInputs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want error
	}{
		{"", errEmpty},
		{"hello", errNotFae},
		{"hello, world", errNotFae},
		{"\x89FA", errTruncatedHeader},
		{"\x89FAE\r\n\x1a\n\x01", errTruncatedHeader},
	} {
		_, err := NewReader(strings.NewReader(c.in), testKey)
		_, err2 := NewReaderAt(strings.NewReader(c.in), int64(len(c.in)), testKey)
		if err != c.want || err2 != c.want {
			t.Errorf("%q: %v, %v; want %v", c.in, err, err2, c.want)
		}
	}
}
