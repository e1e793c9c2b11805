package stream

import (
	"bytes"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"
	"testing/cryptotest"
	"testing/iotest"

	"golang.org/x/crypto/argon2"

	"github.com/faelabs/fae"
)

var update = flag.Bool("update", false, "rewrite the known-answer files in testdata")

const small = MinChunkSize // the chunk size of most tests

var (
	testKey    = bytes.Repeat([]byte{0x4b}, 32)
	cheapCost  = Argon2idParams{Time: 1, Memory: 64, Threads: 1}
	testPass   = []byte("correct horse battery staple")
	smallSizes = []int{0, 1, small - 1, small, small + 1, 3*small - 1, 3 * small, 3*small + 1, 5*small + 100}
)

func plaintext(n int) []byte {
	b := make([]byte, n)
	r := rand.NewChaCha8([32]byte{byte(n), byte(n >> 8), byte(n >> 16)})
	r.Read(b)
	return b
}

// fileAlgorithms returns the registered algorithms the format allows.
func fileAlgorithms() []string {
	var names []string
	for _, info := range fae.Algorithms() {
		if info.KeySize == 32 && info.NonceSize >= 12 {
			names = append(names, info.Name)
		}
	}
	return names
}

// encrypt encrypts pt, writing it in pieces of random sizes, or with
// ReadFrom if pieces is 0.
func encrypt(t testing.TB, h Header, key, pt []byte, pieces int) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := NewWriter(&out, h, key)
	if err != nil {
		t.Fatal(err)
	}
	if pieces == 0 {
		// Hide bytes.Reader's WriteTo, so that io.Copy uses ReadFrom.
		if _, err := io.Copy(w, struct{ io.Reader }{bytes.NewReader(pt)}); err != nil {
			t.Fatal(err)
		}
	} else {
		r := rand.New(rand.NewPCG(uint64(len(pt)), uint64(pieces)))
		for rest := pt; len(rest) > 0; {
			k := min(len(rest), r.IntN(2*len(pt)/pieces+1)+1)
			if n, err := w.Write(rest[:k]); n != k || err != nil {
				t.Fatalf("Write: %d, %v", n, err)
			}
			rest = rest[k:]
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// decrypt decrypts ct with NewReader, reading in pieces of random sizes, or
// with WriteTo if pieces is 0.
func decrypt(ct, key []byte, pieces int) ([]byte, error) {
	r, err := NewReader(bytes.NewReader(ct), key)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if pieces == 0 {
		_, err = io.Copy(&out, r)
		return out.Bytes(), err
	}
	rng := rand.New(rand.NewPCG(uint64(len(ct)), uint64(pieces)))
	buf := make([]byte, len(ct)/pieces+1)
	for {
		n, err := r.Read(buf[:rng.IntN(len(buf))+1])
		out.Write(buf[:n])
		if err == io.EOF {
			return out.Bytes(), nil
		} else if err != nil {
			return out.Bytes(), err
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, n := range smallSizes {
		pt := plaintext(n)
		for _, pieces := range []int{0, 1, 7} {
			ct := encrypt(t, Header{Algorithm: "aes-256-ocb3", ChunkSize: small}, testKey, pt, pieces)
			chunks := max(1, (n+small-1)/small)
			if want := chunks*(small+16) - (chunks*small - n); len(ct)-headerSize(t, ct) != want {
				t.Errorf("%d bytes: %d bytes of chunks, want %d", n, len(ct)-headerSize(t, ct), want)
			}
			for _, rpieces := range []int{0, 1, 5} {
				got, err := decrypt(ct, testKey, rpieces)
				if err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("%d bytes, write %d, read %d: %v", n, pieces, rpieces, err)
				}
			}
		}
	}
}

// TestRoundTripBatches crosses the boundaries of batches, and runs more
// batches than a pipeline holds, with small and default chunks.
func TestRoundTripBatches(t *testing.T) {
	for _, cs := range []int{small, DefaultChunkSize} {
		per := max(1, batchSize/cs)
		for _, n := range []int{cs, (1 + per) * cs, (1+per)*cs + 1, (1+2*per)*cs - 1, 13*batchSize + 5} {
			pt := plaintext(n)
			ct := encrypt(t, Header{Algorithm: "chacha20-poly1305", ChunkSize: cs}, testKey, pt, 3)
			for _, pieces := range []int{0, 3} {
				if got, err := decrypt(ct, testKey, pieces); err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("chunk %d, %d bytes: %v", cs, n, err)
				}
			}
			if got := encrypt(t, Header{Algorithm: "chacha20-poly1305", ChunkSize: cs}, testKey, pt, 0); len(got) != len(ct) {
				t.Fatalf("chunk %d, %d bytes: ReadFrom wrote %d bytes, Write %d", cs, n, len(got), len(ct))
			}
		}
	}
}

func TestAlgorithms(t *testing.T) {
	names := fileAlgorithms()
	if len(names) < 3 {
		t.Fatalf("only %v", names)
	}
	pt := plaintext(2*small + 3)
	for _, name := range names {
		for _, h := range []Header{
			{Algorithm: name, ChunkSize: small},
			{Algorithm: name, ChunkSize: small, Passphrase: true, Argon2id: cheapCost},
		} {
			key := testKey
			if h.Passphrase {
				key = testPass
			}
			ct := encrypt(t, h, key, pt, 1)
			if got, err := decrypt(ct, key, 0); err != nil || !bytes.Equal(got, pt) {
				t.Errorf("%s, passphrase %v: %v", name, h.Passphrase, err)
			}
		}
	}
}

func TestDefaults(t *testing.T) {
	ct := encrypt(t, Header{}, testKey, []byte("x"), 1)
	h := parse(t, ct)
	if h.Algorithm != DefaultAlgorithm || h.ChunkSize != DefaultChunkSize || h.Passphrase {
		t.Errorf("header %+v", h.Header)
	}
	if testing.Short() {
		return
	}
	ct = encrypt(t, Header{Passphrase: true}, testPass, []byte("x"), 1)
	if h := parse(t, ct); h.Argon2id != defaultArgon2id {
		t.Errorf("Argon2id %+v, want %+v", h.Argon2id, defaultArgon2id)
	}
}

func TestHeaderErrors(t *testing.T) {
	for _, c := range []struct {
		h   Header
		key []byte
	}{
		{Header{Algorithm: "no-such-alg"}, testKey},
		{Header{Algorithm: "aes-128-gcm"}, testKey},
		{Header{Algorithm: "aes-256-ccm", ChunkSize: 16 << 20}, testKey},
		{Header{ChunkSize: 1 << 11}, testKey},
		{Header{ChunkSize: 1 << 27}, testKey},
		{Header{ChunkSize: 3 << 12}, testKey},
		{Header{ChunkSize: -1}, testKey},
		{Header{}, testKey[:31]},
		{Header{}, nil},
		{Header{Argon2id: cheapCost}, testKey},
		{Header{Passphrase: true, Argon2id: cheapCost}, nil},
		{Header{Passphrase: true, Argon2id: Argon2idParams{Time: 0, Memory: 64, Threads: 1}}, testPass},
		{Header{Passphrase: true, Argon2id: Argon2idParams{Time: 17, Memory: 64, Threads: 1}}, testPass},
		{Header{Passphrase: true, Argon2id: Argon2idParams{Time: 1, Memory: 7, Threads: 1}}, testPass},
		{Header{Passphrase: true, Argon2id: Argon2idParams{Time: 1, Memory: 64, Threads: 9}}, testPass},
		{Header{Passphrase: true, Argon2id: Argon2idParams{Time: 1, Memory: 64, Threads: 0}}, testPass},
		{Header{Passphrase: true, Argon2id: Argon2idParams{Time: 1, Memory: 4<<20 + 1, Threads: 1}}, testPass},
	} {
		var out bytes.Buffer
		if _, err := NewWriter(&out, c.h, c.key); err == nil || out.Len() > 0 {
			t.Errorf("%+v, %d-byte key: error %v, wrote %d bytes", c.h, len(c.key), err, out.Len())
		}
	}
	// CCM's 12-byte nonce allows chunks up to 8 MiB.
	if _, err := NewWriter(io.Discard, Header{Algorithm: "aes-256-ccm", ChunkSize: 8 << 20}, testKey); err != nil {
		t.Error(err)
	}
}

func TestWrongKey(t *testing.T) {
	ct := encrypt(t, Header{ChunkSize: small}, testKey, []byte("hello"), 1)
	key := slices.Clone(testKey)
	key[31] ^= 1
	if _, err := decrypt(ct, key, 0); err != ErrWrongKey {
		t.Errorf("wrong key: %v", err)
	}
	if _, err := decrypt(ct, append(slices.Clone(testKey), 0), 0); err != ErrWrongKey {
		t.Errorf("longer key: %v", err)
	}
	if _, err := decrypt(ct, testKey[:31], 0); err != ErrWrongKey {
		t.Errorf("short key: %v", err)
	}
	ct = encrypt(t, Header{ChunkSize: small, Passphrase: true, Argon2id: cheapCost}, testPass, []byte("hello"), 1)
	for _, key := range [][]byte{[]byte("correct horse battery stapler"), testKey} {
		if _, err := decrypt(ct, key, 0); err != ErrWrongPassphrase {
			t.Errorf("wrong passphrase: %v", err)
		}
		if _, err := NewReaderAt(bytes.NewReader(ct), int64(len(ct)), key); err != ErrWrongPassphrase {
			t.Errorf("ReaderAt, wrong passphrase: %v", err)
		}
	}
	if _, err := decrypt(ct, nil, 0); err == nil || err == ErrWrongPassphrase {
		t.Errorf("empty passphrase: %v", err)
	}
}

// openAll decrypts ct with NewReader, both ways, and with NewReaderAt, and
// returns the error, which must be the same every way.
func openAll(t *testing.T, ct, key []byte) error {
	t.Helper()
	_, err := decrypt(ct, key, 0)
	_, err2 := decrypt(ct, key, 3)
	if fmt.Sprint(err) != fmt.Sprint(err2) {
		t.Fatalf("WriteTo: %v, Read: %v", err, err2)
	}
	ra, err3 := NewReaderAt(bytes.NewReader(ct), int64(len(ct)), key)
	if err3 == nil {
		_, err3 = io.Copy(io.Discard, io.NewSectionReader(ra, 0, 1<<62))
	}
	if (err == nil) != (err3 == nil) {
		t.Fatalf("Reader: %v, ReaderAt: %v", err, err3)
	}
	return err
}

// mustFail checks that ct fails with a *ChunkError for chunk i, or with
// another error if i < 0.
func mustFail(t *testing.T, what string, ct []byte, i int) {
	t.Helper()
	err := openAll(t, ct, testKey)
	var ce *ChunkError
	switch {
	case err == nil:
		t.Fatalf("%s: no error", what)
	case i >= 0 && (!errors.As(err, &ce) || ce.Index != uint64(i)):
		t.Fatalf("%s: %v, want chunk %d to fail", what, err, i)
	case i < 0 && errors.As(err, &ce):
		t.Fatalf("%s: %v, want a header error", what, err)
	}
}

func TestBitFlips(t *testing.T) {
	for _, n := range []int{0, small + 1} {
		pt := plaintext(n)
		ct := encrypt(t, Header{Algorithm: "aes-256-ocb3", ChunkSize: small}, testKey, pt, 1)
		hs := headerSize(t, ct)
		for i := range len(ct) * 8 {
			if testing.Short() && i/8 >= hs && i%8 != i/8%8 {
				continue // emulated runs: every header bit, one bit of each chunk byte
			}
			ct[i/8] ^= 1 << (i % 8)
			want := -1 // a header error
			if i/8 >= hs {
				want = (i/8 - hs) / (small + 16)
			}
			mustFail(t, fmt.Sprintf("%d bytes, bit %d flipped", n, i), ct, want)
			ct[i/8] ^= 1 << (i % 8)
		}
	}
}

func TestTruncationAndReordering(t *testing.T) {
	const n = 4*small + 100 // five chunks
	ct := encrypt(t, Header{Algorithm: "aes-256-ocb3", ChunkSize: small}, testKey, plaintext(n), 1)
	hs, full := headerSize(t, ct), small+16
	chunk := func(i int) []byte { return ct[hs+i*full : min(len(ct), hs+(i+1)*full)] }
	join := func(parts ...[]byte) []byte { return slices.Concat(append([][]byte{ct[:hs]}, parts...)...) }

	for i := range hs {
		_, err := decrypt(ct[:i], testKey, 0)
		if err == nil {
			t.Fatalf("header cut at %d: no error", i)
		}
		if _, err := NewReaderAt(bytes.NewReader(ct[:i]), int64(i), testKey); err == nil {
			t.Fatalf("header cut at %d: ReaderAt: no error", i)
		}
	}
	for i := range 5 {
		mustFail(t, fmt.Sprintf("cut before chunk %d", i), ct[:hs+i*full], max(0, i-1))
		for _, k := range []int{1, 15, 16, 17, len(chunk(i)) / 2, len(chunk(i)) - 1} {
			mustFail(t, fmt.Sprintf("cut %d bytes into chunk %d", k, i), ct[:hs+i*full+k], i)
		}
	}
	mustFail(t, "last byte cut", ct[:len(ct)-1], 4)
	mustFail(t, "chunks 1 and 2 swapped", join(chunk(0), chunk(2), chunk(1), chunk(3), chunk(4)), 1)
	mustFail(t, "chunks 3 and 4 swapped", join(chunk(0), chunk(1), chunk(2), chunk(4), chunk(3)), 3)
	mustFail(t, "chunk 1 twice", join(chunk(0), chunk(1), chunk(1), chunk(2), chunk(3), chunk(4)), 2)
	mustFail(t, "chunk 0 dropped", join(chunk(1), chunk(2), chunk(3), chunk(4)), 0)
	mustFail(t, "chunk 2 dropped", join(chunk(0), chunk(1), chunk(3), chunk(4)), 2)
	mustFail(t, "last chunk twice", join(chunk(0), chunk(1), chunk(2), chunk(3), chunk(4), chunk(4)), 4)
	mustFail(t, "one byte appended", append(slices.Clone(ct), 0), 4)
	mustFail(t, "a tag's worth appended", append(slices.Clone(ct), make([]byte, 16)...), 4)
	mustFail(t, "a chunk appended", append(slices.Clone(ct), chunk(1)...), 4)

	// A chunk of another file under the same key.
	other := encrypt(t, Header{Algorithm: "aes-256-ocb3", ChunkSize: small}, testKey, plaintext(n), 1)
	mustFail(t, "chunk 2 from another file", join(chunk(0), chunk(1), other[hs+2*full:hs+3*full], chunk(3), chunk(4)), 2)
	mustFail(t, "header of another file", slices.Concat(other[:hs], ct[hs:]), 0)

	// The plaintext of the chunks before the failing one comes out, and no
	// more.
	got, err := decrypt(ct[:hs+3*full], testKey, 0)
	if !bytes.Equal(got, plaintext(n)[:2*small]) || err == nil {
		t.Errorf("cut before chunk 3: %d bytes out, %v", len(got), err)
	}
}

// TestEmptyFile checks the encoding of an empty plaintext: one empty last
// chunk, and an empty last chunk is allowed nowhere else.
func TestEmptyFile(t *testing.T) {
	ct := encrypt(t, Header{Algorithm: "aes-256-ocb3", ChunkSize: small}, testKey, nil, 1)
	hs := headerSize(t, ct)
	if len(ct) != hs+16 {
		t.Fatalf("%d bytes, want header and a tag", len(ct))
	}
	if err := openAll(t, ct, testKey); err != nil {
		t.Fatal(err)
	}
	mustFail(t, "no chunk", ct[:hs], 0)

	// A full chunk followed by an empty last chunk, sealed properly, is
	// still rejected: the full chunk must have been the last.
	h := parse(t, ct)
	s, err := h.verify(testKey, ct[hs-macSize:hs])
	if err != nil {
		t.Fatal(err)
	}
	nonce := s.newNonce()
	forged := slices.Clone(ct[:hs])
	forged = s.aead.Seal(forged, s.nonce(nonce, 0, false), make([]byte, small), nil)
	forged = s.aead.Seal(forged, s.nonce(nonce, 1, true), nil, nil)
	mustFail(t, "empty chunk after a full one", forged, 1)
}

func TestReaderAt(t *testing.T) {
	for _, n := range append(smallSizes, 70*small+3) {
		pt := plaintext(n)
		ct := encrypt(t, Header{Algorithm: "aes-256-gcm", ChunkSize: small}, testKey, pt, 1)
		ra, err := NewReaderAt(bytes.NewReader(ct), int64(len(ct)), testKey)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for range 50 {
					off := rng2(rng, g).Int64N(int64(n) + 10)
					buf := make([]byte, rng2(rng, g).IntN(3*small+10))
					k, err := ra.ReadAt(buf, off)
					want := pt[min(int(off), n):min(int(off)+len(buf), n)]
					switch {
					case !bytes.Equal(buf[:k], want):
						t.Errorf("%d bytes: ReadAt(%d, %d) returned %d bytes that differ", n, len(buf), off, k)
					case k < len(buf) && err != io.EOF:
						t.Errorf("%d bytes: ReadAt(%d, %d) = %d, %v; want io.EOF", n, len(buf), off, k, err)
					case k == len(buf) && err != nil && !(err == io.EOF && off+int64(k) == int64(n)):
						t.Errorf("%d bytes: ReadAt(%d, %d) = %d, %v", n, len(buf), off, k, err)
					}
				}
			})
		}
		wg.Wait()
		if _, err := ra.ReadAt(make([]byte, 1), -1); err == nil {
			t.Errorf("negative offset: no error")
		}
	}
}

var rngMu sync.Mutex

// rng2 draws a generator for goroutine g from r, under a lock.
func rng2(r *rand.Rand, g int) *rand.Rand {
	rngMu.Lock()
	defer rngMu.Unlock()
	return rand.New(rand.NewPCG(r.Uint64(), uint64(g)))
}

func TestReaderAtDamage(t *testing.T) {
	const n = 10*small + 5
	pt := plaintext(n)
	ct := encrypt(t, Header{Algorithm: "aes-256-ocb3", ChunkSize: small}, testKey, pt, 1)
	hs := headerSize(t, ct)
	ct[hs+4*(small+16)+7] ^= 0x80 // in chunk 4
	ra, err := NewReaderAt(bytes.NewReader(ct), int64(len(ct)), testKey)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, n)
	k, err := ra.ReadAt(buf, 100)
	var ce *ChunkError
	if !errors.As(err, &ce) || ce.Index != 4 || k != 4*small-100 || !bytes.Equal(buf[:k], pt[100:4*small]) {
		t.Errorf("read across chunk 4: %d bytes, %v", k, err)
	}
	if !bytes.Equal(buf[k:], make([]byte, len(buf)-k)) {
		t.Errorf("unverified bytes left in the buffer")
	}
	if k, err := ra.ReadAt(buf[:small], 5*small); err != nil || !bytes.Equal(buf[:k], pt[5*small:6*small]) {
		t.Errorf("read after chunk 4: %v", err)
	}
	// Truncation at a chunk boundary, found by the check of the last chunk.
	for _, size := range []int{hs + 16, hs + 3*(small+16), len(ct) - 1} {
		if _, err := NewReaderAt(bytes.NewReader(ct), int64(size), testKey); !errors.As(err, &ce) {
			t.Errorf("%d of %d bytes: %v", size, len(ct), err)
		}
	}
}

// TestReference builds files independently from docs/format.md, with the
// writer's salt and prefix, and compares them with the writer's output.
func TestReference(t *testing.T) {
	for _, c := range []struct {
		h   Header
		key []byte
		n   int
	}{
		{Header{Algorithm: "aes-256-ocb3", ChunkSize: small}, testKey, 2*small + 9},
		{Header{Algorithm: "chacha20-poly1305", ChunkSize: 1 << 13}, bytes.Repeat([]byte{7}, 45), 1 << 13},
		{Header{Algorithm: "aes-256-gcm", ChunkSize: small, Passphrase: true, Argon2id: Argon2idParams{2, 100, 3}}, testPass, 0},
	} {
		pt := plaintext(c.n)
		got := encrypt(t, c.h, c.key, pt, 1)
		info := slices.IndexFunc(fae.Algorithms(), func(i fae.Info) bool { return i.Name == c.h.Algorithm })
		nonceSize := fae.Algorithms()[info].NonceSize

		// The header.
		want := []byte("\x89FAE\r\n\x1a\n\x01")
		want = append(want, byte(len(c.h.Algorithm)))
		want = append(want, c.h.Algorithm...)
		want = append(want, byte(bits.Len(uint(c.h.ChunkSize))-1))
		secret := c.key
		if c.h.Passphrase {
			p := c.h.Argon2id
			want = append(want, 2)
			want = binary.BigEndian.AppendUint32(want, p.Time)
			want = binary.BigEndian.AppendUint32(want, p.Memory)
			want = append(want, p.Threads, 32)
		} else {
			want = append(want, 1, 32)
		}
		salt := got[len(want) : len(want)+32]
		prefix := got[len(want)+32 : len(want)+32+nonceSize-9]
		want = append(want, salt...)
		want = append(want, prefix...)
		if c.h.Passphrase {
			p := c.h.Argon2id
			secret = argon2.IDKey(c.key, salt, p.Time, p.Memory, p.Threads, 32)
		}
		prk, _ := hkdf.Extract(sha256.New, secret, salt)
		macKey, _ := hkdf.Expand(sha256.New, prk, "fae v1 header MAC", 32)
		payloadKey, _ := hkdf.Expand(sha256.New, prk, "fae v1 payload key"+string(want), 32)
		m := hmac.New(sha256.New, macKey)
		m.Write(want)
		want = m.Sum(want)

		// The chunks.
		aead, err := fae.New(c.h.Algorithm, payloadKey)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i == 0 || i*c.h.ChunkSize < c.n; i++ {
			chunk := pt[i*c.h.ChunkSize : min(c.n, (i+1)*c.h.ChunkSize)]
			last := (i+1)*c.h.ChunkSize >= c.n
			nonce := binary.BigEndian.AppendUint64(slices.Clone(prefix), uint64(i))
			if last {
				nonce = append(nonce, 1)
			} else {
				nonce = append(nonce, 0)
			}
			want = aead.Seal(want, nonce, chunk, nil)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%+v: the writer's file differs from the reference", c.h)
		}
	}
}

// TestKnownAnswer decrypts files made by an earlier version of the writer,
// so that a change of the format cannot go unnoticed.
func TestKnownAnswer(t *testing.T) {
	for _, c := range []struct {
		file string
		key  []byte
		h    Header
	}{
		{"testdata/v1-key-aes-256-ocb3.fae", testKey, Header{Algorithm: "aes-256-ocb3", ChunkSize: small}},
		{"testdata/v1-key-aegis-256x4.fae", testKey, Header{Algorithm: "aegis-256x4", ChunkSize: small}},
		{"testdata/v1-passphrase-chacha20-poly1305.fae", testPass, Header{Algorithm: "chacha20-poly1305", ChunkSize: small, Passphrase: true, Argon2id: cheapCost}},
	} {
		pt := plaintext(small + 10)
		if *update {
			cryptotest.SetGlobalRandom(t, 1)
			if err := os.WriteFile(c.file, encrypt(t, c.h, c.key, pt, 1), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ct, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := decrypt(ct, c.key, 0); err != nil || !bytes.Equal(got, pt) {
			t.Errorf("%s: %v", c.file, err)
		}
	}
}

func TestWriterErrors(t *testing.T) {
	w, err := NewWriter(io.Discard, Header{ChunkSize: small}, testKey)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("x"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := w.Write([]byte("x")); err == nil {
		t.Errorf("Write after Close: no error")
	}

	// A failing destination: the error comes back from Write or Close.
	boom := errors.New("boom")
	fw := &failingWriter{after: 2, err: boom}
	w, err = NewWriter(fw, Header{ChunkSize: small}, testKey)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Write(make([]byte, 3*batchSize))
	if cerr := w.Close(); err != boom && cerr != boom {
		t.Errorf("Write: %v, Close: %v", err, cerr)
	}
	if _, err := NewWriter(&failingWriter{err: boom}, Header{}, testKey); err != boom {
		t.Errorf("header write: %v", err)
	}

	// A failing source: ReadFrom returns its error.
	w, _ = NewWriter(io.Discard, Header{ChunkSize: small}, testKey)
	if _, err := w.(io.ReaderFrom).ReadFrom(iotest.ErrReader(boom)); err != boom {
		t.Errorf("ReadFrom: %v", err)
	}
}

func TestReaderIOError(t *testing.T) {
	ct := encrypt(t, Header{ChunkSize: small}, testKey, plaintext(3*batchSize), 1)
	boom := errors.New("boom")
	r, err := NewReader(io.MultiReader(bytes.NewReader(ct[:len(ct)/2]), iotest.ErrReader(boom)), testKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, r); err != boom {
		t.Errorf("got %v", err)
	}
}

type failingWriter struct {
	after int
	err   error
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after == 0 {
		return 0, w.err
	}
	w.after--
	return len(p), nil
}

// parseBytes parses the header at the start of b.
func parseBytes(b []byte) (*header, []byte, error) {
	return parseHeader(func(n int) ([]byte, error) {
		if len(b) < n {
			return b, errTruncatedHeader
		}
		next := b[:n]
		b = b[n:]
		return next, nil
	})
}

func parse(t testing.TB, ct []byte) *header {
	t.Helper()
	h, _, err := parseBytes(ct)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func headerSize(t testing.TB, ct []byte) int {
	return len(parse(t, ct).raw) + macSize
}
