package raocb

import (
	"math"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/ocbmode"
)

// TestSealBatchLongAD checks that SealBatch, whose checks take associated
// data's bound without a call per message up to ocbmode.MaxPlainAD,
// panics as Seal does on longer associated data that does not fit (a
// final partial block past the indices, or more than 16 GiB), and only on
// it: the data lies in memory reserved but not readable, which neither
// reads before its check.
func TestSealBatchLongAD(t *testing.T) {
	if math.MaxInt < 1<<36 {
		t.Skip("associated data past 16 GiB needs 64-bit lengths")
	}
	size := uint64(16*ocbmode.MaxIndex + 32) // (an int constant overflows on 32-bit platforms)
	mem, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot reserve %d bytes: %v", size, err)
	}
	defer syscall.Munmap(mem)
	a, err := New(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	nonce := make([]byte, NonceSize)
	for _, c := range []struct {
		adLen uint64
		fits  bool
	}{{ocbmode.MaxPlainAD + 1, false}, {ocbmode.MaxPlainAD + 15, false}, {16*ocbmode.MaxIndex + 1, false}, {16 * ocbmode.MaxIndex, true}} {
		ad := unsafe.Slice(unsafe.SliceData(mem), c.adLen)
		if ocbmode.ADFits(c.adLen) != c.fits {
			t.Fatalf("ADFits(%d) is not %v", c.adLen, c.fits)
		}
		if c.fits {
			continue // sealing would read it
		}
		msgs := make([]batch.Message, 20)
		for i := range msgs {
			msgs[i] = batch.Message{Nonce: nonce, In: make([]byte, 64), Out: make([]byte, 64+TagSize)}
		}
		msgs[17].AD = ad
		got := func() (msg string) {
			defer func() { msg, _ = recover().(string) }()
			a.SealBatch(msgs)
			return ""
		}()
		if !strings.Contains(got, "batch message 17: message or additional data too large") {
			t.Errorf("SealBatch with %d bytes of associated data: panic %q", c.adLen, got)
		}
		for i := range msgs {
			if msgs[i].Out[0] != 0 {
				t.Fatalf("SealBatch with %d bytes of associated data wrote message %d", c.adLen, i)
			}
		}
	}
}
