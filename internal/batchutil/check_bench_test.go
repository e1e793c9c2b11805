package batchutil

import (
	"strconv"
	"testing"

	"github.com/faelabs/fae/batch"
)

// BenchmarkCheck measures CheckSeal and CheckOpen alone on batches of 64
// messages of one length, with 12-byte nonces, 16-byte tags and no
// associated data, out of place and in place, and ("-ad") out of place
// with 13 bytes of associated data.
func BenchmarkCheck(b *testing.B) {
	s := Spec{Pkg: "p", NonceSize: 12, TagSize: 16}
	for _, v := range []struct{ inPlace, ad bool }{{false, false}, {true, false}, {false, true}} {
		for _, open := range []bool{false, true} {
			name := "seal"
			if open {
				name = "open"
			}
			if v.inPlace {
				name += "-inplace"
			}
			if v.ad {
				name += "-ad"
			}
			b.Run(name+"/"+strconv.Itoa(64), func(b *testing.B) {
				msgs := make([]batch.Message, 64)
				for i := range msgs {
					buf := make([]byte, 64+16)
					in, out := buf[:64], make([]byte, 64+16)
					if open {
						in, out = buf, make([]byte, 64)
					}
					if v.inPlace {
						out = buf[:len(out)]
					}
					msgs[i] = batch.Message{Nonce: make([]byte, 12), In: in, Out: out}
					if v.ad {
						msgs[i].AD = make([]byte, 13)
					}
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
