// checkptr, which -race turns on, rejects the deliberate out-of-bounds
// pointer below.
//go:build !race

package guard

import (
	"crypto/aes"
	"crypto/cipher"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// overread is an AEAD whose Seal reads the byte after its plaintext.
type overread struct{ cipher.AEAD }

var sink byte

func (o overread) Seal(dst, nonce, pt, ad []byte) []byte {
	sink = *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(pt)), len(pt)))
	return o.AEAD.Seal(dst, nonce, pt, ad)
}

// recorder is a testing.TB whose failures are recorded, not reported.
type recorder struct {
	*testing.T
	msgs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, format)
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Failed() bool { return len(r.msgs) > 0 }

func TestAEADCatchesOverread(t *testing.T) {
	b, err := aes.NewCipher(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	g, err := cipher.NewGCM(b)
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{T: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		TestAEAD(r, overread{g}, 0)
	}()
	<-done
	if !strings.Contains(strings.Join(r.msgs, "\n"), "guard page") {
		t.Errorf("TestAEAD passed an AEAD that reads past its plaintext; messages: %q", r.msgs)
	}
}
