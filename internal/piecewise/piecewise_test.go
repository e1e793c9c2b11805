package piecewise

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// toy is a State of a made-up cipher with blocks of bs bytes: the
// keystream derives from an accumulator that absorbs the plaintext.
type toy struct {
	acc uint64
	bs  int
}

func (t *toy) BlockSize() int { return t.bs }

func (t *toy) KeyStream(ks *[MaxBlock]byte) {
	for j := range t.bs {
		ks[j] = byte(t.acc>>(8*(j%8))) ^ byte(j)
	}
}

func (t *toy) Absorb(block []byte) {
	for _, b := range block {
		t.acc = (t.acc ^ uint64(b)) * 0x100000001b3
	}
}

func (t *toy) Encrypt(dst, src []byte) { t.crypt(dst, src, false) }
func (t *toy) Decrypt(dst, src []byte) { t.crypt(dst, src, true) }

func (t *toy) crypt(dst, src []byte, decrypt bool) {
	var ks [MaxBlock]byte
	for ; len(src) > 0; dst, src = dst[t.bs:], src[t.bs:] {
		t.KeyStream(&ks)
		var p [MaxBlock]byte
		for j := range t.bs {
			if decrypt {
				p[j] = src[j] ^ ks[j]
			} else {
				p[j] = src[j]
			}
			dst[j] = src[j] ^ ks[j]
		}
		t.Absorb(p[:t.bs])
	}
}

func (t *toy) Finalize(adLen, msgLen uint64) (tag [MaxTag]byte) {
	binary.LittleEndian.PutUint64(tag[:], t.acc)
	binary.LittleEndian.PutUint64(tag[8:], adLen)
	binary.LittleEndian.PutUint64(tag[16:], msgLen)
	return tag
}

// seal is the one-shot encryption the pieces must reproduce.
func seal(bs int, pt []byte) ([]byte, [MaxTag]byte) {
	t := &toy{acc: 1, bs: bs}
	out := make([]byte, len(pt))
	full := len(pt) &^ (bs - 1)
	t.Encrypt(out[:full], pt[:full])
	if rest := pt[full:]; len(rest) > 0 {
		var ks [MaxBlock]byte
		t.KeyStream(&ks)
		var b [MaxBlock]byte
		copy(b[:], rest)
		for j := range rest {
			out[full+j] = rest[j] ^ ks[j]
		}
		t.Absorb(b[:bs])
	}
	return out, t.Finalize(3, uint64(len(pt)))
}

type message = Message[toy, *toy]

func TestPiecesMatchOneShot(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, bs := range []int{16, 32, MaxBlock} {
		for _, n := range []int{0, 1, bs - 1, bs, bs + 1, 5*bs + 3, 1000} {
			pt := make([]byte, n)
			for i := range pt {
				pt[i] = byte(r.Uint32())
			}
			want, wantTag := seal(bs, pt)
			for range 20 {
				var e, d message
				e.Start(toy{acc: 1, bs: bs}, "toy", 16, 3, 1<<20)
				d.Start(toy{acc: 1, bs: bs}, "toy", 16, 3, 1<<20)
				ct := bytes.Clone(pt)
				for p := ct; len(p) > 0; {
					k := min(len(p), r.IntN(2*bs+2))
					e.XORKeyStream(p[:k], p[:k], false) // in place
					p = p[k:]
				}
				if !bytes.Equal(ct, want) {
					t.Fatalf("block %d, %d bytes: pieces give %x, one shot %x", bs, n, ct, want)
				}
				tag := e.Tag()
				if !bytes.Equal(tag, wantTag[:16]) || !bytes.Equal(e.Tag(), tag) {
					t.Fatalf("block %d, %d bytes: tag %x, want %x, and repeatable", bs, n, tag, wantTag[:16])
				}
				got := make([]byte, n)
				for i := 0; i < n; {
					k := min(n-i, r.IntN(2*bs+2))
					d.XORKeyStream(got[i:i+k], ct[i:i+k], true)
					i += k
				}
				if !bytes.Equal(got, pt) || !d.Verify(tag) || !d.Verify(tag) || d.Verify(wantTag[1:17]) {
					t.Fatalf("block %d, %d bytes: decryption or Verify failed", bs, n)
				}
			}
		}
	}
}

// TestWipe checks that the end of a message leaves no state or keystream
// behind, only the tag.
func TestWipe(t *testing.T) {
	var m message
	m.Start(toy{acc: 1, bs: 32}, "toy", 16, 0, 1<<20)
	m.XORKeyStream(make([]byte, 45), make([]byte, 45), false)
	tag := m.Tag()
	if m.s != (toy{}) || m.pend != [MaxBlock]byte{} || m.ks != [MaxBlock]byte{} {
		t.Error("state or buffers left behind after the end of the message")
	}
	if !bytes.Equal(m.Tag(), tag) {
		t.Error("Tag changed after the wipe")
	}
}

func TestPanics(t *testing.T) {
	var m message
	m.Start(toy{acc: 1, bs: 16}, "toy", 16, 0, 100)
	buf := make([]byte, 100)
	mustPanic(t, "toy: output smaller than input", func() { m.XORKeyStream(buf[:9], buf[:10], false) })
	mustPanic(t, "toy: invalid buffer overlap of output and input", func() { m.XORKeyStream(buf[1:11], buf[:10], false) })
	m.XORKeyStream(buf[:99], buf[:99], false)
	mustPanic(t, "toy: message too large", func() { m.XORKeyStream(buf[:2], buf[:2], false) })
	m.XORKeyStream(buf[:1], buf[:1], false)
	m.Tag()
	mustPanic(t, "toy: XORKeyStream after the end of the message", func() { m.XORKeyStream(buf[:0], buf[:0], false) })
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		if got := recover(); got != want {
			t.Errorf("panic %v, want %q", got, want)
		}
	}()
	f()
}
