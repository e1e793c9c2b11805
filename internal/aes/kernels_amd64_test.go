//go:build !purego

package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/impl"
)

// forEachKernel runs f with each assembly kernel selected alone.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	defer impl.Reset("aes")
	names := impl.List("aes")
	if len(names) == 0 {
		t.Skip("no assembly kernels on this CPU")
	}
	for _, name := range names {
		impl.Select("aes", name)
		if got := Active().String(); got != name {
			t.Fatalf("Select(%q): Active() = %v", name, got)
		}
		t.Run(name, f)
	}
}

func TestKernelSelectGeneric(t *testing.T) {
	defer impl.Reset("aes")
	impl.Select("aes", "generic")
	if Active() != Generic {
		t.Errorf("Active() = %v with generic selected", Active())
	}
}

// kernelKeys returns a fae Block and a crypto/aes one for a random key of
// each size.
func kernelKeys(t *testing.T, r *rand.ChaCha8) (keys []struct {
	fae *Block
	std cipher.Block
}) {
	for _, size := range []int{16, 24, 32} {
		key := make([]byte, size)
		r.Read(key)
		b, err := New(key)
		if err != nil {
			t.Fatal(err)
		}
		s, err := stdaes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, struct {
			fae *Block
			std cipher.Block
		}{b, s})
	}
	return keys
}

// guardOut returns a dst of n bytes at offset off in a buffer whose other
// bytes hold a pattern, and a check that the pattern is intact.
func guardOut(n, off int) ([]byte, func() bool) {
	buf := make([]byte, off+n+80)
	for i := range buf {
		buf[i] = byte(i*7 + 1)
	}
	dst := buf[off : off+n]
	return dst, func() bool {
		for i := range buf {
			if (i < off || i >= off+n) && buf[i] != byte(i*7+1) {
				return false
			}
		}
		return true
	}
}

func TestKernelECB(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.NewChaCha8([32]byte{1})
		for _, k := range kernelKeys(t, r) {
			for n := 1; n <= 300; n++ {
				off := n % 17
				src := make([]byte, 16*n+off)[off:]
				r.Read(src)
				want := make([]byte, len(src))
				for i := 0; i < len(src); i += 16 {
					k.std.Encrypt(want[i:], src[i:])
				}
				dst, intact := guardOut(len(src), n%5)
				k.fae.EncryptBlocks(dst, src)
				if !bytes.Equal(dst, want) || !intact() {
					t.Fatalf("AES-%d EncryptBlocks, %d blocks: wrong output", keyBits(k.fae), n)
				}
				k.fae.DecryptBlocks(dst, dst)
				if !bytes.Equal(dst, src) || !intact() {
					t.Fatalf("AES-%d DecryptBlocks in place, %d blocks: wrong output", keyBits(k.fae), n)
				}
				inPlace := bytes.Clone(src)
				k.fae.EncryptBlocks(inPlace, inPlace)
				if !bytes.Equal(inPlace, want) {
					t.Fatalf("AES-%d EncryptBlocks in place, %d blocks: wrong output", keyBits(k.fae), n)
				}
				dst, intact = guardOut(len(src), n%3)
				k.fae.DecryptBlocks(dst, want)
				if !bytes.Equal(dst, src) || !intact() {
					t.Fatalf("AES-%d DecryptBlocks, %d blocks: wrong output", keyBits(k.fae), n)
				}
			}
			in, out := make([]byte, 16), make([]byte, 16)
			r.Read(in)
			want := make([]byte, 16)
			k.std.Encrypt(want, in)
			if k.fae.Encrypt(out, in); !bytes.Equal(out, want) {
				t.Fatal("Encrypt: wrong output")
			}
			if k.fae.Decrypt(out, want); !bytes.Equal(out, in) {
				t.Fatal("Decrypt: wrong output")
			}
		}
	})
}

func keyBits(b *Block) int { return 32*b.Rounds() - 192 }

func ctrAdd(iv [16]byte, n uint64) [16]byte {
	hi := binary.BigEndian.Uint64(iv[:8])
	lo := binary.BigEndian.Uint64(iv[8:])
	lo += n
	if lo < n {
		hi++
	}
	binary.BigEndian.PutUint64(iv[:8], hi)
	binary.BigEndian.PutUint64(iv[8:], lo)
	return iv
}

func TestKernelCTR(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.NewChaCha8([32]byte{2})
		check := func(k *Block, std cipher.Block, iv [16]byte, n int, inPlace bool) {
			t.Helper()
			off := n % 13
			src := make([]byte, n+off)[off:]
			r.Read(src)
			want := make([]byte, n)
			cipher.NewCTR(std, iv[:]).XORKeyStream(want, src)
			var dst []byte
			intact := func() bool { return true }
			if inPlace {
				dst = src
			} else {
				dst, intact = guardOut(n, n%7)
			}
			next := iv
			k.XORKeyStreamAt(dst, src, &next)
			if !bytes.Equal(dst, want) || !intact() {
				t.Fatalf("AES-%d, iv %x, %d bytes, in place %v: wrong output", keyBits(k), iv, n, inPlace)
			}
			if wantNext := ctrAdd(iv, uint64(n+15)/16); next != wantNext {
				t.Fatalf("AES-%d, iv %x, %d bytes: next counter %x, want %x", keyBits(k), iv, n, next, wantNext)
			}
		}
		for _, k := range kernelKeys(t, r) {
			for n := 0; n <= 1024; n++ {
				var iv [16]byte
				r.Read(iv[:])
				check(k.fae, k.std, iv, n, n%2 == 0)
			}
			// Carry from lo into hi, and the wrap of all 128 bits.
			for _, hi := range []uint64{0, 0x0123456789abcdef, 1<<64 - 1} {
				for before := 1; before <= 40; before++ {
					var iv [16]byte
					binary.BigEndian.PutUint64(iv[:8], hi)
					binary.BigEndian.PutUint64(iv[8:], -uint64(before))
					for _, n := range []int{16*before - 1, 16 * before, 16*before + 1, 16*before + 300, 16*before + 16*40 + 5} {
						check(k.fae, k.std, iv, n, n%2 == 1)
					}
				}
			}
		}
	})
}

func TestKernelAllocs(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		b, _ := New(make([]byte, 16))
		buf := make([]byte, 1000)
		if n := testing.AllocsPerRun(10, func() {
			b.XORKeyStreamAt(buf, buf, new([16]byte))
			b.EncryptBlocks(buf[:992], buf[:992])
			b.DecryptBlocks(buf[:992], buf[:992])
		}); n != 0 {
			t.Errorf("%v allocations", n)
		}
	})
}

func BenchmarkKernels(b *testing.B) {
	const size = 16384
	key := make([]byte, 16)
	buf := make([]byte, size)
	std, _ := stdaes.NewCipher(key)
	b.Run("crypto-cipher-CTR", func(b *testing.B) {
		s := cipher.NewCTR(std, make([]byte, 16))
		b.SetBytes(size)
		for b.Loop() {
			s.XORKeyStream(buf, buf)
		}
	})
	paths.Each(func(name string) {
		for _, bits := range []int{128, 256} {
			k, _ := New(make([]byte, bits/8))
			for _, op := range []struct {
				name string
				f    func()
			}{
				{"ECB-enc", func() { k.EncryptBlocks(buf, buf) }},
				{"ECB-dec", func() { k.DecryptBlocks(buf, buf) }},
				{"CTR", func() { k.XORKeyStreamAt(buf, buf, new([16]byte)) }},
			} {
				b.Run(fmt.Sprintf("%s/AES-%d/%s", name, bits, op.name), func(b *testing.B) {
					b.SetBytes(size)
					for b.Loop() {
						op.f()
					}
				})
			}
		}
	})
}

// TestExpandKeyAESNI checks the assembly key expansion against the generic
// one, including that both leave the bytes past the last round key alone.
func TestExpandKeyAESNI(t *testing.T) {
	if !cpu.X86HasAESNI {
		t.Skip("no AES-NI")
	}
	r := rand.NewChaCha8([32]byte{3})
	for _, size := range []int{16, 24, 32} {
		key := make([]byte, size)
		for range 1000 {
			r.Read(key)
			want := &Block{rounds: size/4 + 6}
			r.Read(want.enc[:])
			r.Read(want.dec[:])
			got := *want
			expandKeyGeneric(want, key)
			expandKeyAESNI(got.rounds, &key[0], &got.enc, &got.dec)
			if got.enc != want.enc {
				t.Fatalf("key %x:\nenc = %x\nwant  %x", key, got.enc, want.enc)
			}
			if got.dec != want.dec {
				t.Fatalf("key %x:\ndec = %x\nwant  %x", key, got.dec, want.dec)
			}
		}
	}
}

// TestGenericNeedsBitslicedKey checks that a Block expanded for an assembly
// kernel refuses the generic one loudly, and that a Block expanded for the
// generic kernel serves every kernel.
func TestGenericNeedsBitslicedKey(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		kernel := Active().String()
		defer impl.Select("aes", kernel)
		key := make([]byte, 16)
		asm := mustNew(t, key)
		impl.Select("aes", "generic")
		generic := mustNew(t, key)
		buf := make([]byte, 64)
		for name, f := range map[string]func(){
			"Encrypt":        func() { asm.Encrypt(buf, buf) },
			"Decrypt":        func() { asm.Decrypt(buf, buf) },
			"EncryptBlocks":  func() { asm.EncryptBlocks(buf, buf) },
			"DecryptBlocks":  func() { asm.DecryptBlocks(buf, buf) },
			"XORKeyStreamAt": func() { asm.XORKeyStreamAt(buf, buf[:5], new([16]byte)) },
		} {
			func() {
				defer func() {
					if msg, _ := recover().(string); !strings.Contains(msg, "kernel selected after New") {
						t.Errorf("%s with the generic kernel on a key expanded for %s: panic %q", name, kernel, msg)
					}
				}()
				f()
			}()
		}

		impl.Select("aes", kernel)
		std, _ := stdaes.NewCipher(key)
		want := make([]byte, 64)
		for i := 0; i < len(buf); i += 16 {
			std.Encrypt(want[i:], buf[i:])
		}
		got := make([]byte, 64)
		if generic.EncryptBlocks(got, buf); !bytes.Equal(got, want) {
			t.Errorf("%s: EncryptBlocks on a key expanded for the generic kernel: wrong output", kernel)
		}
		if generic.DecryptBlocks(got, want); !bytes.Equal(got, buf) {
			t.Errorf("%s: DecryptBlocks on a key expanded for the generic kernel: wrong output", kernel)
		}
	})
}
