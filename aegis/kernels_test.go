package aegis

import (
	"bytes"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// allVariants lists the variants with their constructors.
var allVariants = []struct {
	v   *variant
	new func(key []byte, tagSize int) (*AEAD, error)
}{
	{v128L, New128L}, {v128X2, New128X2}, {v128X4, New128X4},
	{v256, New256}, {v256X2, New256X2}, {v256X4, New256X4},
}

// withKernel runs f with one AES kernel selected.
func withKernel(name string, f func()) {
	impl.Select("aes", name)
	defer impl.Reset("aes")
	f()
}

func randBytes(r *mrand.ChaCha8, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}

// outputs is everything a message yields through the APIs that depend on
// the kernel: Seal, the streaming Encrypter with random splits, and the
// MAC of plaintext || ad.
func outputs(t *testing.T, a *AEAD, nonce, pt, ad []byte, splits *mrand.Rand) []byte {
	t.Helper()
	ct := a.Seal(nil, nonce, pt, ad)
	got, err := a.Open(nil, nonce, ct, ad)
	if err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("%s: round trip of %d bytes failed: %v", a.v.name, len(pt), err)
	}
	e := a.NewEncrypter(nonce, ad)
	stream := make([]byte, len(pt))
	for i := 0; i < len(pt); {
		n := min(len(pt)-i, splits.IntN(3*a.v.rate()))
		e.XORKeyStream(stream[i:i+n], pt[i:i+n])
		i += n
	}
	stream = append(stream, e.Tag()...)
	if !bytes.Equal(stream, ct) {
		t.Fatalf("%s: Encrypter differs from Seal for %d bytes", a.v.name, len(pt))
	}
	h, err := newMAC(a.v, a.key[:a.v.keySize], nonce, a.tagSize)
	if err != nil {
		t.Fatal(err)
	}
	h.Write(pt)
	h.Write(ad)
	return h.Sum(ct)
}

// TestKernelsAgree compares every kernel with the portable code for every
// variant: message lengths 0..300 byte by byte and ragged large ones, random
// associated data lengths, inputs at odd addresses, both tag sizes.
func TestKernelsAgree(t *testing.T) {
	lengths := []int{}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 511, 512, 513, 1023, 4096+7, 16384, 65536+13, 1<<17-9)
	if testing.Short() {
		lengths = lengths[:80]
	}
	for _, kernel := range impl.List("aes") {
		for _, c := range allVariants {
			t.Run(kernel+"/"+c.v.name, func(t *testing.T) {
				r := mrand.NewChaCha8([32]byte{byte(len(kernel)), byte(c.v.lanes), byte(c.v.words)})
				buf := randBytes(r, 1<<17+300)
				for _, n := range lengths {
					key, nonce := randBytes(r, c.v.keySize), randBytes(r, c.v.keySize)
					tagSize := 16 * (1 + int(r.Uint64()%2))
					s := int(r.Uint64() % 7) // unaligned
					pt := buf[s : s+n]
					ad := buf[len(buf)-int(r.Uint64()%uint64(n+1)):]
					a, err := c.new(key, tagSize)
					if err != nil {
						t.Fatal(err)
					}
					seed := r.Uint64()
					var want, got []byte
					withKernel("generic", func() { want = outputs(t, a, nonce, pt, ad, mrand.New(mrand.NewPCG(seed, 1))) })
					withKernel(kernel, func() { got = outputs(t, a, nonce, pt, ad, mrand.New(mrand.NewPCG(seed, 1))) })
					if !bytes.Equal(got, want) {
						t.Fatalf("msg %d, ad %d, tag %d: kernel output differs from generic", n, len(ad), tagSize)
					}
				}
			})
		}
	}
}

// TestKernelsContinue switches kernels in the middle of a streamed message
// and MAC: every kernel leaves the state in the same form.
func TestKernelsContinue(t *testing.T) {
	kernels := append(impl.List("aes"), "generic")
	r := mrand.NewChaCha8([32]byte{9})
	for _, c := range allVariants {
		key, nonce := randBytes(r, c.v.keySize), randBytes(r, c.v.keySize)
		pt, ad := randBytes(r, 1000), randBytes(r, 77)
		a, _ := c.new(key, 32)
		want := a.Seal(nil, nonce, pt, ad)
		e := a.NewEncrypter(nonce, ad)
		got := make([]byte, len(pt))
		for i, k := 0, 0; i < len(pt); k++ {
			n := min(len(pt)-i, 1+int(r.Uint64()%300))
			withKernel(kernels[k%len(kernels)], func() { e.XORKeyStream(got[i:i+n], pt[i:i+n]) })
			i += n
		}
		withKernel(kernels[0], func() { got = append(got, e.Tag()...) })
		if !bytes.Equal(got, want) {
			t.Errorf("%s: streaming across kernels differs from Seal", c.v.name)
		}
	}
}
