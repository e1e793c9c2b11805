package fae

import (
	"bytes"
	"crypto/cipher"
	"strings"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/impl/impltest"
	"github.com/faelabs/fae/ocb"
)

// fit truncates b or pads it with zeros to n bytes.
func fit(b []byte, n int) []byte {
	return append(b[:min(len(b), n):min(len(b), n)], make([]byte, max(n-len(b), 0))...)
}

// FuzzRegistry seals and opens fuzzed messages with the algorithm of the
// registry that alg picks, at the nonce and tag sizes that sizes picks (key
// and nonce are cut or padded to them). Seal must append to dst and give
// the same bytes in place, on the portable code of every package, and with
// parallelism 1 to 4; Open must undo it, in place too, and reject a flipped
// bit in the ciphertext or tag, the associated data or the nonce, and a
// shortened ciphertext. big&1 and big&2 lengthen the message and the
// associated data of the OCB and GCM algorithms past the threshold
// (ocb.ParallelThreshold, gcm's alike), so that WithParallelism splits them.
func FuzzRegistry(f *testing.F) {
	f.Add(uint8(0), uint16(0), []byte("key"), []byte("nonce"), []byte("plaintext"), []byte("ad"), uint16(3), uint8(1), uint8(0))
	f.Add(uint8(7), uint16(0x0102), []byte{}, []byte{}, make([]byte, 1000), []byte{}, uint16(8000), uint8(3), uint8(0))
	f.Add(uint8(13), uint16(0x0305), []byte{1}, []byte{2}, make([]byte, 129), make([]byte, 65), uint16(100), uint8(2), uint8(3))
	f.Fuzz(func(t *testing.T, alg uint8, sizes uint16, key, nonce, pt, ad []byte, flip uint16, par, big uint8) {
		infos := Algorithms()
		info := infos[int(alg)%len(infos)]
		nonceSize := info.NonceSizes[int(sizes&0xff)%len(info.NonceSizes)]
		tagSize := info.TagSizes[int(sizes>>8)%len(info.TagSizes)]
		key, nonce = fit(key, info.KeySize), fit(nonce, nonceSize)
		if strings.Contains(info.Name, "ocb") || strings.HasSuffix(info.Name, "-gcm") {
			if big&1 != 0 {
				pt = append(pt[:len(pt):len(pt)], make([]byte, ocb.ParallelThreshold)...)
			}
			if big&2 != 0 {
				ad = append(ad[:len(ad):len(ad)], make([]byte, ocb.ParallelThreshold)...)
			}
		}
		if l := 15 - nonceSize; strings.Contains(info.Name, "ccm") && l < 8 && uint64(len(pt)) >= 1<<(8*l) {
			return // too long for CCM with this nonce size
		}
		parallelism := 1 + int(par%4)
		newAEAD := func() cipher.AEAD {
			a, err := New(info.Name, key, WithNonceSize(nonceSize), WithTagSize(tagSize), WithParallelism(parallelism))
			if err != nil {
				t.Fatal(err)
			}
			if a.NonceSize() != nonceSize || a.Overhead() != tagSize {
				t.Fatalf("%s: NonceSize %d, Overhead %d, want %d, %d", info.Name, a.NonceSize(), a.Overhead(), nonceSize, tagSize)
			}
			return a
		}
		a := newAEAD()
		what := func(s string) string { return info.Name + ": " + s }

		dst := []byte("prefix")
		ct := a.Seal(dst, nonce, pt, ad)
		if string(ct[:len(dst)]) != "prefix" || len(ct) != len(dst)+len(pt)+tagSize {
			t.Fatal(what("Seal did not append ciphertext and tag to dst"))
		}
		ct = ct[len(dst):]
		buf := append(make([]byte, 0, len(pt)+tagSize), pt...)
		if got := a.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(got, ct) {
			t.Fatal(what("Seal in place differs"))
		}
		parallelism = 1
		if got := newAEAD().Seal(nil, nonce, pt, ad); !bytes.Equal(got, ct) {
			t.Fatal(what("parallel Seal differs from serial"))
		}
		impltest.Generic(func() {
			if got := newAEAD().Seal(nil, nonce, pt, ad); !bytes.Equal(got, ct) {
				t.Fatal(what("the kernels differ from the generic code"))
			}
		})

		if got, err := a.Open(nil, nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
			t.Fatal(what("Open does not undo Seal"))
		}
		buf = append(buf[:0], ct...)
		if got, err := a.Open(buf[:0], nonce, buf, ad); err != nil || !bytes.Equal(got, pt) {
			t.Fatal(what("Open in place does not undo Seal"))
		}
		bit := int(flip) % (8 * len(ct))
		ct[bit/8] ^= 1 << (bit % 8)
		if _, err := a.Open(nil, nonce, ct, ad); err == nil {
			t.Fatalf("%s: flipped bit %d of ciphertext and tag accepted", info.Name, bit)
		}
		ct[bit/8] ^= 1 << (bit % 8)
		if len(ad) > 0 {
			bit := int(flip) % (8 * len(ad))
			bad := bytes.Clone(ad)
			bad[bit/8] ^= 1 << (bit % 8)
			if _, err := a.Open(nil, nonce, ct, bad); err == nil {
				t.Fatalf("%s: flipped bit %d of the associated data accepted", info.Name, bit)
			}
		}
		bit = int(flip) % (8 * len(nonce))
		nonce[bit/8] ^= 1 << (bit % 8)
		if _, err := a.Open(nil, nonce, ct, ad); err == nil {
			t.Fatalf("%s: flipped bit %d of the nonce accepted", info.Name, bit)
		}
		nonce[bit/8] ^= 1 << (bit % 8)
		n := int(flip) % len(ct)
		if _, err := a.Open(nil, nonce, ct[:n], ad); err == nil {
			t.Fatalf("%s: ciphertext cut to %d of %d bytes accepted", info.Name, n, len(ct))
		}
	})
}

// FuzzBatch seals a batch of fuzzed messages with the algorithm of the
// registry that alg picks among those with Info.Batch, at the sizes that
// sizes picks: message i is a piece of data cuts[i]*6 bytes long at most,
// with a piece of ad and the fuzzed nonce with its last byte changed by i,
// in place when bit i of inPlace is set. SealBatch must give each message's
// Seal, on the default kernels and on the portable code; OpenBatch, with
// a bit flipped in the messages that tamper picks, must open exactly the
// others and zero the outputs of those.
func FuzzBatch(f *testing.F) {
	f.Add(uint8(0), uint16(0), []byte("key"), []byte("nonce"), []byte("some plaintext to cut"), []byte("ad"), []byte{3, 0, 2}, uint16(5), uint16(2))
	f.Add(uint8(5), uint16(0x0307), []byte{}, []byte{}, make([]byte, 1600), []byte("additional data"), []byte{255, 7, 92, 0, 0, 1, 250, 8, 9}, uint16(0x1ff), uint16(0x111))
	f.Fuzz(func(t *testing.T, alg uint8, sizes uint16, key, nonce, data, ad, cuts []byte, inPlace, tamper uint16) {
		var infos []Info
		for _, info := range Algorithms() {
			if info.Batch {
				infos = append(infos, info)
			}
		}
		info := infos[int(alg)%len(infos)]
		nonceSize := info.NonceSizes[int(sizes&0xff)%len(info.NonceSizes)]
		tagSize := info.TagSizes[int(sizes>>8)%len(info.TagSizes)]
		key, nonce = fit(key, info.KeySize), fit(nonce, nonceSize)
		newAEAD := func() batch.AEAD {
			a, err := New(info.Name, key, WithNonceSize(nonceSize), WithTagSize(tagSize))
			if err != nil {
				t.Fatal(err)
			}
			return a.(batch.AEAD)
		}
		a := newAEAD()
		cuts = cuts[:min(len(cuts), 16)]
		type message struct{ nonce, ad, pt, ct []byte }
		ms := make([]message, len(cuts))
		seal := make([]batch.Message, len(cuts))
		for i, c := range cuts {
			s := min(i, len(data))
			m := &ms[i]
			m.pt, m.ad = data[s:min(s+6*int(c), len(data))], ad[:min(i*3, len(ad))]
			m.nonce = bytes.Clone(nonce)
			m.nonce[nonceSize-1] ^= byte(i)
			m.ct = a.Seal(nil, m.nonce, m.pt, m.ad)
			in := append(make([]byte, 0, len(m.ct)), m.pt...)
			out := in[:len(m.ct)]
			if inPlace>>i&1 == 0 {
				out = make([]byte, len(m.ct))
			}
			seal[i] = batch.Message{Nonce: m.nonce, AD: m.ad, In: in, Out: out}
		}
		check := func(what string) {
			for i := range seal {
				if !bytes.Equal(seal[i].Out, ms[i].ct) {
					t.Fatalf("%s: %s: message %d of %d bytes differs from Seal", info.Name, what, i, len(ms[i].pt))
				}
			}
		}
		a.SealBatch(seal)
		check("SealBatch")
		impltest.Generic(func() {
			for i := range seal {
				seal[i].In = append(seal[i].In[:0], ms[i].pt...)
			}
			newAEAD().SealBatch(seal)
			check("SealBatch on the portable code")
		})

		open := make([]batch.Message, len(cuts))
		allOK := true
		for i, m := range ms {
			in := bytes.Clone(m.ct)
			if tamper>>i&1 != 0 {
				bit := (int(cuts[i]) + i) % (8 * len(in))
				in[bit/8] ^= 1 << (bit % 8)
				allOK = false
			}
			out := in[:len(m.pt)]
			if inPlace>>i&1 == 0 {
				out = make([]byte, len(m.pt))
			}
			open[i] = batch.Message{Nonce: m.nonce, AD: m.ad, In: in, Out: out, OK: tamper>>i&1 != 0}
		}
		if got := a.OpenBatch(open); got != allOK {
			t.Fatalf("%s: OpenBatch returned %v, want %v", info.Name, got, allOK)
		}
		for i, m := range open {
			bad := tamper>>i&1 != 0
			switch {
			case m.OK == bad:
				t.Fatalf("%s: message %d (tampered %v): OK %v", info.Name, i, bad, m.OK)
			case bad && !bytes.Equal(m.Out, make([]byte, len(m.Out))):
				t.Fatalf("%s: message %d: output of a failed message not zeroed", info.Name, i)
			case !bad && !bytes.Equal(m.Out, ms[i].pt):
				t.Fatalf("%s: message %d: OpenBatch does not undo SealBatch", info.Name, i)
			}
		}
	})
}
