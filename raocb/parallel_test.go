package raocb

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"testing"
)

// TestParallelMatchesSerial checks that every degree of parallelism gives
// the serial output, for messages and associated data around and above
// the threshold. Run it with -race too.
func TestParallelMatchesSerial(t *testing.T) {
	lengths := []int{ParallelThreshold - 1, ParallelThreshold, ParallelThreshold + 17, 700<<10 + 5, 1<<20 + 33}
	if testing.Short() {
		lengths = lengths[1:3]
	}
	buf := make([]byte, lengths[len(lengths)-1]+64)
	rand.Read(buf)
	for _, keyLen := range []int{16, 24, 32} {
		key := make([]byte, keyLen)
		rand.Read(key)
		serial, err := NewWithSizes(key, 12, 16)
		if err != nil {
			t.Fatal(err)
		}
		nonce := make([]byte, 12)
		for _, n := range lengths {
			pt, ad := buf[3:3+n], buf[len(buf)-n:]
			want := serial.Seal(nil, nonce, pt, ad)
			for p := 1; p <= 8; p++ {
				t.Run(fmt.Sprintf("key%d/len%d/p%d", keyLen, n, p), func(t *testing.T) {
					a := serial.WithParallelism(p)
					got := a.Seal(nil, nonce, pt, ad)
					if !bytes.Equal(got, want) {
						t.Fatal("parallel Seal differs from serial")
					}
					if opened, err := a.Open(nil, nonce, got, ad); err != nil || !bytes.Equal(opened, pt) {
						t.Fatalf("parallel Open failed: %v", err)
					}
					got[len(got)/2] ^= 1
					if _, err := a.Open(nil, nonce, got, ad); err == nil {
						t.Fatal("parallel Open accepted a tampered message")
					}
				})
			}
		}
	}
}
