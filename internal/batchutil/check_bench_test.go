package batchutil

import (
	"strconv"
	"testing"

	"github.com/faelabs/fae/batch"
)

// BenchmarkCheck measures CheckSeal and CheckOpen alone on batches of 64
// messages of one length, with 12-byte nonces, 16-byte tags and no
// associated data, out of place and in place.
func BenchmarkCheck(b *testing.B) {
	s := Spec{Pkg: "p", NonceSize: 12, TagSize: 16}
	for _, inPlace := range []bool{false, true} {
		for _, open := range []bool{false, true} {
			name := "seal"
			if open {
				name = "open"
			}
			if inPlace {
				name += "-inplace"
			}
			b.Run(name+"/"+strconv.Itoa(64), func(b *testing.B) {
				msgs := make([]batch.Message, 64)
				for i := range msgs {
					buf := make([]byte, 64+16)
					in, out := buf[:64], make([]byte, 64+16)
					if open {
						in, out = buf, make([]byte, 64)
					}
					if inPlace {
						out = buf[:len(out)]
					}
					msgs[i] = batch.Message{Nonce: make([]byte, 12), In: in, Out: out}
				}
				for b.Loop() {
					if open {
						s.CheckOpen(msgs)
					} else {
						s.CheckSeal(msgs)
					}
				}
			})
		}
	}
}
