package stream

import (
	"bytes"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"slices"
	"testing"

	"golang.org/x/crypto/argon2"

	"github.com/faelabs/fae"
)

// refHeader is a header as docs/format.md lays it out, read field by field
// apart from parseHeader.
type refHeader struct {
	alg        string
	nonceSize  int
	chunk      int
	passphrase bool
	time, mem  uint32
	threads    uint8
	salt       []byte
	macAt      int // where the MAC begins; the header is 32 bytes more
}

// refParseHeader reads the header at the start of data, or returns nil if a
// field is out of the format's range or data ends inside the header.
func refParseHeader(data []byte) *refHeader {
	at := 0
	take := func(n int) []byte {
		if at+n > len(data) {
			at = len(data) + 1
			return nil
		}
		at += n
		return data[at-n : at]
	}
	short := func() bool { return at > len(data) }
	h := new(refHeader)
	if string(take(8)) != "\x89FAE\r\n\x1a\n" {
		return nil
	}
	b := take(2)
	if short() || b[0] != 1 || b[1] < 1 || b[1] > 64 {
		return nil
	}
	h.alg = string(take(int(b[1])))
	i := slices.IndexFunc(fae.Algorithms(), func(info fae.Info) bool {
		return info.Name == h.alg && info.KeySize == 32 && info.NonceSize >= 12
	})
	b = take(2)
	if short() || i < 0 || b[0] < 12 || b[0] > 26 || h.alg == "aes-256-ccm" && b[0] > 23 {
		return nil
	}
	h.nonceSize = fae.Algorithms()[i].NonceSize
	h.chunk = 1 << b[0]
	switch b[1] {
	case 1:
	case 2:
		p := take(9)
		if short() {
			return nil
		}
		h.passphrase = true
		h.time, h.mem, h.threads = binary.BigEndian.Uint32(p), binary.BigEndian.Uint32(p[4:]), p[8]
		if h.time < 1 || h.time > 16 || h.threads < 1 || h.mem < 8*uint32(h.threads) || h.mem > 4<<20 {
			return nil
		}
	default:
		return nil
	}
	b = take(1)
	if short() || b[0] < 16 || b[0] > 64 {
		return nil
	}
	h.salt = take(int(b[0]))
	take(h.nonceSize - 9)
	h.macAt = at
	if take(32); short() {
		return nil
	}
	return h
}

// costly reports whether h asks for more Argon2id work than a fuzz input
// should get: the format allows it, but it takes seconds and gigabytes.
func (h *refHeader) costly() bool {
	return h.passphrase && uint64(h.time)*uint64(h.mem) > 2<<10
}

// refFile is what docs/format.md says a reader makes of a file.
type refFile struct {
	headerOK bool     // the header parses and its MAC verifies
	chunk    int      // plaintext bytes per chunk
	chunks   [][]byte // the plaintext of each chunk
	ok       []bool   // whether each chunk verifies
	size     int64    // the plaintext's length, from the file's length
}

// refOpen decrypts data with key, one chunk after the other, per
// docs/format.md. With fixMAC it first overwrites the MAC of a header that
// parses with the right one, so that the body is reached.
func refOpen(h *refHeader, data, key []byte, fixMAC bool) *refFile {
	f := new(refFile)
	if h == nil {
		return f
	}
	mac, payloadKey := refKeys(h, data, key)
	if fixMAC {
		copy(data[h.macAt:], mac)
	}
	if !hmac.Equal(mac, data[h.macAt:h.macAt+32]) {
		return f
	}
	f.headerOK, f.chunk = true, h.chunk
	aead, err := fae.New(h.alg, payloadKey)
	if err != nil {
		panic(err)
	}
	body, full := data[h.macAt+32:], h.chunk+aead.Overhead()
	n := max(1, (len(body)+full-1)/full)
	f.size = int64(len(body) - n*aead.Overhead())
	prefix := data[h.macAt-(h.nonceSize-9) : h.macAt]
	for i := range n {
		c := body[i*full : min(len(body), (i+1)*full)]
		nonce := binary.BigEndian.AppendUint64(slices.Clone(prefix), uint64(i))
		if i == n-1 {
			nonce = append(nonce, 1)
		} else {
			nonce = append(nonce, 0)
		}
		var pt []byte
		err := errors.New("short")
		if len(c) > aead.Overhead() || len(c) == aead.Overhead() && i == 0 {
			pt, err = aead.Open(nil, nonce, c, nil)
		}
		f.chunks = append(f.chunks, pt)
		f.ok = append(f.ok, err == nil)
	}
	return f
}

// refKeys derives the header MAC and the payload key of the header h, at
// the start of data, from key, per docs/format.md.
func refKeys(h *refHeader, data, key []byte) (mac, payloadKey []byte) {
	secret := key
	if h.passphrase {
		secret = argon2.IDKey(key, h.salt, h.time, h.mem, h.threads, 32)
	}
	prk, _ := hkdf.Extract(sha256.New, secret, h.salt)
	macKey, _ := hkdf.Expand(sha256.New, prk, "fae v1 header MAC", 32)
	payloadKey, _ = hkdf.Expand(sha256.New, prk, "fae v1 payload key"+string(data[:h.macAt]), 32)
	m := hmac.New(sha256.New, macKey)
	m.Write(data[:h.macAt])
	return m.Sum(nil), payloadKey
}

// read returns what ReadAt(p, off) must give for len(p) = n: the verified
// bytes, and the index of the chunk that fails, -1 if none does, or -2 for
// io.EOF.
func (f *refFile) read(off, n int64) ([]byte, int) {
	switch {
	case n == 0:
		return nil, -1
	case off >= f.size:
		return nil, -2
	}
	end := min(off+n, f.size)
	var out []byte
	for i := off / int64(f.chunk); i*int64(f.chunk) < end; i++ {
		if !f.ok[i] {
			return out, int(i)
		}
		lo, hi := max(off, i*int64(f.chunk)), min(end, (i+1)*int64(f.chunk))
		out = append(out, f.chunks[i][lo-i*int64(f.chunk):hi-i*int64(f.chunk)]...)
	}
	if off+n > f.size {
		return out, -2
	}
	return out, -1
}

// stream returns what a Reader must give: the plaintext of the chunks
// before the first that fails, and its index, or -1 if none does.
func (f *refFile) stream() ([]byte, int) {
	var out []byte
	for i, ok := range f.ok {
		if !ok {
			return out, i
		}
		out = append(out, f.chunks[i]...)
	}
	return out, -1
}

// checkErr fails t unless err is what read or stream said: a *ChunkError for
// chunk bad, nil (or io.EOF if eofOK) for -1, io.EOF for -2.
func checkErr(t *testing.T, what string, err error, bad int, eofOK bool) {
	t.Helper()
	var ce *ChunkError
	switch {
	case bad >= 0 && (!errors.As(err, &ce) || ce.Index != uint64(bad)):
		t.Fatalf("%s: error %v, want chunk %d to fail", what, err, bad)
	case bad == -1 && err != nil && !(eofOK && err == io.EOF):
		t.Fatalf("%s: error %v, want none", what, err)
	case bad == -2 && err != io.EOF:
		t.Fatalf("%s: error %v, want io.EOF", what, err)
	}
}

// FuzzReader feeds arbitrary bytes as an encrypted file under testKey to
// NewReader and NewReaderAt and compares what they make of it with refOpen,
// an independent reading of docs/format.md: they must never panic, must
// reject every header refOpen rejects, and must return exactly the bytes
// of the chunks that verify, and the error of the first that does not.
// fixMAC gives a header that parses its right MAC, so that the fuzzer
// reaches the chunks; off and n pick a range for ReadAt, and writeTo picks
// WriteTo over Read.
func FuzzReader(f *testing.F) {
	ct := encrypt(f, Header{Algorithm: "aes-256-ocb3", ChunkSize: small}, testKey, plaintext(small+5), 1)
	f.Add(ct, false, false, uint32(small-3), uint32(10))
	f.Add(ct[:len(ct)-1], true, true, uint32(0), uint32(1<<20))
	f.Add([]byte("\x89FAE\r\n\x1a\n"), false, false, uint32(0), uint32(0))
	f.Fuzz(func(t *testing.T, data []byte, fixMAC, writeTo bool, off, n uint32) {
		data = bytes.Clone(data)
		h := refParseHeader(data)
		if h != nil && (h.costly() || h.chunk > 64<<10) {
			return // valid, but slow: Argon2id's cost, or a chunk's buffers
		}
		ref := refOpen(h, data, testKey, fixMAC)

		r, err := NewReader(bytes.NewReader(data), testKey)
		switch {
		case !ref.headerOK && err == nil:
			t.Fatal("NewReader accepted a header the format rejects")
		case ref.headerOK && err != nil:
			t.Fatalf("NewReader rejected a valid header: %v", err)
		case ref.headerOK:
			var got bytes.Buffer
			if writeTo {
				_, err = io.Copy(&got, r)
			} else {
				_, err = io.Copy(&got, struct{ io.Reader }{r})
			}
			want, bad := ref.stream()
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("Reader returned %d bytes, want the %d of the chunks that verify", got.Len(), len(want))
			}
			checkErr(t, "Reader", err, bad, false)
		}

		ra, err := NewReaderAt(bytes.NewReader(data), int64(len(data)), testKey)
		switch {
		case !ref.headerOK:
			if err == nil {
				t.Fatal("NewReaderAt accepted a header the format rejects")
			}
			return
		case !ref.ok[len(ref.ok)-1]:
			checkErr(t, "NewReaderAt", err, len(ref.ok)-1, false)
			return
		case err != nil:
			t.Fatalf("NewReaderAt rejected a file whose header and last chunk verify: %v", err)
		}
		if size := ra.(interface{ Size() int64 }).Size(); size != ref.size {
			t.Fatalf("Size() = %d, want %d", size, ref.size)
		}
		ranges := [][2]int64{{0, ref.size}, {int64(off) % (ref.size + 2), int64(n) % (ref.size + int64(ref.chunk))}}
		for _, rg := range ranges {
			p := make([]byte, rg[1])
			k, err := ra.ReadAt(p, rg[0])
			want, bad := ref.read(rg[0], rg[1])
			if !bytes.Equal(p[:k], want) {
				t.Fatalf("ReadAt(%d bytes, %d): %d bytes differ from the %d that verify", rg[1], rg[0], k, len(want))
			}
			checkErr(t, "ReadAt", err, bad, false)
		}
	})
}

// cutSizes turns fuzzed bytes into write or read sizes from 0 to 32640,
// small ones more finely.
func cutSizes(cuts []byte) []int {
	s := make([]int, len(cuts))
	for i, c := range cuts {
		s[i] = int(c) << (c >> 5)
	}
	return s
}

// pieceReader returns b in reads of the sizes in sizes (at least 1 byte),
// then the rest at once.
type pieceReader struct {
	b     []byte
	sizes []int
}

func (r *pieceReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	k := len(p)
	if len(r.sizes) > 0 {
		k = min(k, max(1, r.sizes[0]))
		r.sizes = r.sizes[1:]
	}
	k = copy(p, r.b[:min(k, len(r.b))])
	r.b = r.b[k:]
	return k, nil
}

// FuzzRoundTrip encrypts a fuzzed plaintext (pt and extra bytes more) with
// an algorithm, chunk size and key derivation that alg and opts pick,
// written in the pieces cuts says, and decrypts it again: with NewReader,
// read in pieces, and with NewReaderAt, over the whole and over the ranges
// that ranges says. It then damages the file as tamper says (a flipped bit,
// a truncation, an inserted or a deleted byte): every reader must then
// fail, having returned only bytes of the plaintext, and a flipped bit must
// be reported where it is.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("plaintext"), uint16(0), uint8(0), uint8(0), []byte{3, 200}, []byte{0, 0, 1, 0, 0, 5}, uint32(5))
	f.Add([]byte{}, uint16(small+1), uint8(5), uint8(4|16), []byte{255}, []byte{}, uint32(1<<20))
	f.Fuzz(func(t *testing.T, pt []byte, extra uint16, alg, opts uint8, cuts, ranges []byte, tamper uint32) {
		algs := fileAlgorithms()
		h := Header{Algorithm: algs[int(alg)%len(algs)], ChunkSize: MinChunkSize << (opts % 3)}
		if opts&4 != 0 {
			h.Passphrase, h.Argon2id = true, cheapCost
		}
		pt = append(pt[:len(pt):len(pt)], plaintext(int(extra))...)
		sizes := cutSizes(cuts)

		var file bytes.Buffer
		w, err := NewWriter(&file, h, testKey)
		if err != nil {
			t.Fatal(err)
		}
		if opts&8 != 0 {
			if _, err := io.Copy(w, &pieceReader{pt, sizes}); err != nil { // ReadFrom
				t.Fatal(err)
			}
		} else {
			rest := pt
			for _, k := range sizes {
				k = min(k, len(rest))
				if n, err := w.Write(rest[:k]); n != k || err != nil {
					t.Fatalf("Write: %d, %v", n, err)
				}
				rest = rest[k:]
			}
			if _, err := w.Write(rest); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		ct := file.Bytes()

		r, err := NewReader(bytes.NewReader(ct), testKey)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if opts&16 != 0 {
			_, err = io.Copy(&got, r) // WriteTo
		} else {
			buf := make([]byte, 32<<10)
			for _, k := range append(sizes, len(buf)) {
				var n int
				n, err = r.Read(buf[:min(k, len(buf))])
				got.Write(buf[:n])
				if err != nil {
					break
				}
			}
			if err == nil {
				_, err = io.Copy(&got, struct{ io.Reader }{r})
			} else if err == io.EOF {
				err = nil
			}
		}
		if err != nil || !bytes.Equal(got.Bytes(), pt) {
			t.Fatalf("Reader: %v, or the plaintext differs", err)
		}

		ra, err := NewReaderAt(bytes.NewReader(ct), int64(len(ct)), testKey)
		if err != nil {
			t.Fatal(err)
		}
		if size := ra.(interface{ Size() int64 }).Size(); size != int64(len(pt)) {
			t.Fatalf("Size() = %d, want %d", size, len(pt))
		}
		rs := [][2]int{{0, len(pt)}}
		for ; len(ranges) >= 6; ranges = ranges[6:] {
			u := func(b []byte) int { return int(b[0])<<16 | int(b[1])<<8 | int(b[2]) }
			rs = append(rs, [2]int{u(ranges) % (len(pt) + 2), u(ranges[3:]) % (len(pt) + 2)})
		}
		for _, rg := range rs {
			off, n := rg[0], rg[1]
			p := make([]byte, n)
			k, err := ra.ReadAt(p, int64(off))
			want := pt[min(off, len(pt)):min(off+n, len(pt))]
			wantErr := error(nil)
			if n > 0 && off+n > len(pt) {
				wantErr = io.EOF
			}
			if err != wantErr || !bytes.Equal(p[:k], want) {
				t.Fatalf("ReadAt(%d bytes, %d): %d bytes, %v", n, off, k, err)
			}
		}

		// Damage the file.
		bad := slices.Clone(ct)
		pos := int(tamper>>2) % (len(ct) + 1)
		switch tamper & 3 {
		case 0:
			bit := int(tamper>>2) % (8 * len(ct))
			pos = bit / 8
			bad[pos] ^= 1 << (bit % 8)
		case 1:
			bad = bad[:min(pos, len(ct)-1)]
		case 2:
			bad = slices.Insert(bad, pos, byte(tamper>>8))
		case 3:
			bad = slices.Delete(bad, min(pos, len(ct)-1), min(pos, len(ct)-1)+1)
		}
		if rh := refParseHeader(bad); rh != nil && (rh.costly() || rh.chunk > 64<<10) {
			return // a changed Argon2id cost or chunk size: slow, and its MAC fails anyway
		}
		hs, flipped := headerSize(t, ct), tamper&3 == 0
		r, err = NewReader(bytes.NewReader(bad), testKey)
		var ce *ChunkError
		switch {
		case flipped && pos < hs && (err == nil || errors.As(err, &ce)):
			t.Fatalf("flipped bit in the header, at %d: NewReader: %v, want a header error", pos, err)
		case flipped && pos >= hs && err != nil:
			t.Fatalf("flipped bit in a chunk, at %d: NewReader: %v", pos, err)
		case err == nil:
			got.Reset()
			_, err = io.Copy(&got, r)
			if err == nil {
				t.Fatalf("damage %d at %d: Reader found nothing wrong", tamper&3, pos)
			}
			if !bytes.HasPrefix(pt, got.Bytes()) || got.Len()%h.ChunkSize != 0 {
				t.Fatalf("damage %d at %d: Reader returned %d bytes that are not whole chunks of the plaintext", tamper&3, pos, got.Len())
			}
			if flipped {
				tag := (len(ct) - hs - len(pt)) / max(1, (len(pt)+h.ChunkSize-1)/h.ChunkSize)
				checkErr(t, "Reader, flipped bit", err, (pos-hs)/(h.ChunkSize+tag), false)
			}
		}
		if ra, err := NewReaderAt(bytes.NewReader(bad), int64(len(bad)), testKey); err == nil {
			size := ra.(interface{ Size() int64 }).Size()
			p := make([]byte, size)
			k, err := ra.ReadAt(p, 0)
			if !errors.As(err, &ce) {
				t.Fatalf("damage %d at %d: ReaderAt found nothing wrong (%v)", tamper&3, pos, err)
			}
			if !bytes.HasPrefix(pt, p[:k]) {
				t.Fatalf("damage %d at %d: ReadAt returned bytes not of the plaintext", tamper&3, pos)
			}
		}
	})
}

// FuzzHeader parses arbitrary bytes as a header and compares the result
// with refParseHeader's, field by field: parseHeader must never panic,
// must accept exactly the headers the format allows, and must read them as
// the format says, so that marshal gives their bytes back. The Argon2id
// limits must refuse exactly the costs over them, before any work.
func FuzzHeader(f *testing.F) {
	f.Add(encrypt(f, Header{}, testKey, nil, 1))
	f.Add(encrypt(f, Header{Algorithm: "chacha20-poly1305", ChunkSize: MaxChunkSize, Passphrase: true, Argon2id: cheapCost}, testPass, nil, 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, mac, err := parseBytes(data)
		ref := refParseHeader(data)
		switch {
		case ref == nil && err == nil:
			t.Fatalf("parseHeader accepted a header the format rejects: %+v", h.Header)
		case ref == nil:
			return
		case err != nil:
			t.Fatalf("parseHeader rejected a valid header: %v", err)
		}
		want := Header{Algorithm: ref.alg, ChunkSize: ref.chunk, Passphrase: ref.passphrase,
			Argon2id: Argon2idParams{Time: ref.time, Memory: ref.mem, Threads: ref.threads}}
		if h.Header != want || h.nonceSize != ref.nonceSize || !bytes.Equal(h.salt, ref.salt) {
			t.Fatalf("parsed %+v (nonce %d, salt %x), want %+v (nonce %d, salt %x)", h.Header, h.nonceSize, h.salt, want, ref.nonceSize, ref.salt)
		}
		if !bytes.Equal(h.raw, data[:ref.macAt]) || !bytes.Equal(mac, data[ref.macAt:ref.macAt+32]) {
			t.Fatal("the header's bytes or its MAC are not where the format puts them")
		}
		if !bytes.Equal(h.marshal(), h.raw) {
			t.Fatal("marshal does not give the header's bytes back")
		}
		var ce *CostError
		over := ref.passphrase && (ref.mem > 1<<20 || uint64(ref.time)*uint64(ref.mem) > 4<<20)
		if err := (Limits{}).check(h); over != errors.As(err, &ce) || (err != nil && ce == nil) {
			t.Fatalf("%+v under the default limits: %v", h.Argon2id, err)
		}
	})
}

// FuzzReaderAtSize gives NewReaderAt a file that starts with arbitrary
// bytes, with its header's MAC made right if fixMAC is set, and holds zeros
// after them up to an arbitrary size, as a sparse file does: the size
// arithmetic must hold up to 2^63-1, with no panic, and a reader it makes
// must report the size the format implies and read without panicking.
func FuzzReaderAtSize(f *testing.F) {
	ct := encrypt(f, Header{ChunkSize: small}, testKey, plaintext(small+5), 1)
	f.Add(ct, int64(len(ct)), false, uint64(0))
	f.Add(ct, int64(math.MaxInt64), false, uint64(math.MaxInt64-5))
	f.Add(ct[:headerSize(f, ct)], int64(math.MaxInt64-small-16+1), false, uint64(1))
	f.Fuzz(func(t *testing.T, data []byte, size int64, fixMAC bool, off uint64) {
		// The header as the reader sees it, zeros after data included.
		data = slices.Concat(data, make([]byte, max(0, min(size, int64(len(data)+maxHeaderSize))-int64(len(data)))))
		h := refParseHeader(data)
		if h != nil && (h.costly() || h.chunk > 64<<10) {
			return
		}
		if h != nil && fixMAC {
			mac, _ := refKeys(h, data, testKey)
			copy(data[h.macAt:], mac)
		}
		ra, err := NewReaderAt(&sparseFile{data, size, nil}, size, testKey)
		if err != nil {
			return
		}
		hs := int64(h.macAt + 32)
		if h == nil || size < hs {
			t.Fatalf("a reader of %d bytes whose header the format rejects", size)
		}
		i := slices.IndexFunc(fae.Algorithms(), func(info fae.Info) bool { return info.Name == h.alg })
		tag := int64(fae.Algorithms()[i].TagSize)
		body, full := size-hs, int64(h.chunk)+tag
		chunks := max(1, body/full+min(1, body%full))
		if got, want := ra.(interface{ Size() int64 }).Size(), body-chunks*tag; got != want {
			t.Fatalf("Size() = %d, want %d", got, want)
		}
		p := make([]byte, 3*h.chunk)
		if n, err := ra.ReadAt(p, int64(off>>1)); n > len(p) || err == nil && n < len(p) {
			t.Fatalf("ReadAt(%d bytes, %d) = %d, %v", len(p), off>>1, n, err)
		}
	})
}
