package gpu

import (
	"encoding/binary"
)

// Batches: the batch kernels (kernel.batch) take the whole blocks of many
// messages in one launch, laid end to end, with a table at p_sum that
// says where each message's blocks are:
//
//	+32p         piece p's descriptor: the message's Offset_0 (OCB) or B
//	             (RAOCB), 16 bytes as the message's mask; the end of the
//	             piece (launch-relative block index, exclusive); and its
//	             bias: block i of the launch has index i-bias in its
//	             message
//	+sumOff+16p  piece p's sum, zero before the launch, XORed into by the
//	             blocks of the piece
//	+groupOff+4g the piece of block 32g of the launch
//
// with sumOff and groupOff in p_k at kConst. A piece is the part of a
// message's whole blocks in one launch: a message longer than a launch's
// room goes on in the next one. Each thread finds the piece of its block
// from the group table, a step or two forward at most for messages longer
// than 32 blocks; the index, the mask and the sum's address then follow.

// batchPieces is the most pieces a launch of chunk bytes takes: 16 blocks
// a piece on average; a batch of shorter messages takes more launches.
func batchPieces(chunk int) int { return max(chunk/256, 4) }

// batchGroups is the group table's entries for a launch of chunk bytes:
// every 32 blocks of the bitsliced kernels' groups of 1024 that the launch
// touches.
func batchGroups(chunk int) int { return (chunk/16 + 1023) / 1024 * 32 }

// batchDMA is the least bytes of a piece that moves by its own DMA copies
// where its memory is pinned, in a launch of chunk bytes: each copy costs
// the driver a microsecond or two, so small pieces go through the staging
// buffer, copied on all cores, with one DMA copy for the lot.
func batchDMA(chunk int) int { return min(256<<10, chunk/4) }

// batchTableSize is the bytes of a batch launch's table.
func batchTableSize(chunk int) int { return 48*batchPieces(chunk) + 4*batchGroups(chunk) }

// A span is the whole blocks of one message for runBatch: src, and dst
// (nil for a hash kernel, else as long), with mask the message's Offset_0
// or B and first the index in the message of src's first block. The sum of
// the span's blocks is XORed into *sum.
type span struct {
	dst, src []byte
	mask     block
	first    uint32
	sum      *block
}

// runBatch applies batch kernel k to the spans, as many to a launch as fit,
// and XORs each span's sum into it. It returns, for a fallback to undo,
// how many bytes of the spans' output from the start, in order, it
// delivered when it fails (flush).
func (e *engine) runBatch(k kernel, aux []byte, kp *[kBytes]byte, spans []span) (done int, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.begin(aux)
	defer func() { done, err = e.end(c, err) }()
	if err != nil {
		return 0, err
	}
	maxBlocks, maxPieces, dmaMin := e.chunk/16, batchPieces(e.chunk), batchDMA(e.chunk)
	sumOff, groupOff := 32*maxPieces, 48*maxPieces
	kb := *kp
	binary.LittleEndian.PutUint32(kb[kConst:], uint32(sumOff))
	binary.LittleEndian.PutUint32(kb[kConst+4:], uint32(groupOff))
	type place struct {
		dst, src  []byte
		off       int // bytes into the launch
		directIn  bool
		directOut bool
	}
	var places []place
	threads, shift := launchShape(k, e.threads)
	for si, taken := 0, 0; si < len(spans); c++ {
		i := c % 2
		s := &e.slots[i]
		if err = e.flush(i); err != nil {
			return 0, err
		}
		tab := s.tableHost
		places = places[:0]
		blocks := 0
		for si < len(spans) && blocks < maxBlocks && len(places) < maxPieces {
			sp := &spans[si]
			n := min(len(sp.src)-taken, 16*(maxBlocks-blocks))
			p := len(places)
			d := tab[32*p:]
			copy(d, sp.mask[:])
			end := blocks + n/16
			binary.LittleEndian.PutUint32(d[16:], uint32(end))
			binary.LittleEndian.PutUint32(d[20:], uint32(blocks)-sp.first-uint32(taken/16))
			for g := (blocks + 31) / 32; 32*g < end; g++ {
				binary.LittleEndian.PutUint32(tab[groupOff+4*g:], uint32(p))
			}
			pl := place{src: sp.src[taken:][:n], off: 16 * blocks}
			if sp.dst != nil {
				pl.dst = sp.dst[taken:][:n]
			}
			if n >= dmaMin {
				pl.directIn, pl.directOut = e.direct(pl.dst, pl.src)
			}
			places = append(places, pl)
			s.sums = append(s.sums, sp.sum)
			blocks = end
			if taken += n; taken == len(sp.src) {
				si, taken = si+1, 0
			}
		}
		groups := (blocks + 1023) / 1024 * 32
		for g := (blocks + 31) / 32; g < groups; g++ {
			binary.LittleEndian.PutUint32(tab[groupOff+4*g:], uint32(len(places)-1))
		}
		clear(tab[sumOff : sumOff+16*len(places)])
		var staged []pair
		for _, pl := range places {
			if !pl.directIn {
				staged = append(staged, pair{s.host[pl.off:][:len(pl.src)], pl.src})
			}
		}
		copyPairs(staged)

		// The input: DMA for pinned places, one copy for each run of
		// staged ones.
		copyIn := func(lo, hi int) error { return e.dev.copyHtoD(s.dev+uint64(lo), s.host[lo:hi], i) }
		run := -1
		for _, pl := range places {
			if pl.directIn {
				if run >= 0 {
					if err = copyIn(run, pl.off); err != nil {
						return 0, err
					}
					run = -1
				}
				if err = e.dev.copyHtoD(s.dev+uint64(pl.off), pl.src, i); err != nil {
					return 0, err
				}
			} else if run < 0 {
				run = pl.off
			}
		}
		if run >= 0 {
			if err = copyIn(run, 16*blocks); err != nil {
				return 0, err
			}
		}
		for _, r := range [][2]int{{0, 32 * len(places)}, {sumOff, sumOff + 16*len(places)}, {groupOff, groupOff + 4*groups}} {
			if err = e.dev.copyHtoD(s.table+uint64(r[0]), tab[r[0]:r[1]], i); err != nil {
				return 0, err
			}
		}

		grid, per := geometry(uint32(blocks), 0, threads, e.maxCTAs, shift)
		a := launchArgs{dst: s.dev, src: s.dev, tables: e.tables, aux: e.aux, sum: s.table,
			n: uint32(blocks), per: per, k: kb, shared: k.sharedBytes()}
		if err = e.dev.launch(k.name(), grid, threads, i, &a); err != nil {
			return 0, err
		}

		// The output: DMA for pinned places apart from their input,
		// staged ones through host as one copy, delivered by flush.
		if k.op != opHash {
			staged := false
			for _, pl := range places {
				if pl.directOut {
					if err = e.dev.copyDtoH(pl.dst, s.dev+uint64(pl.off), i); err != nil {
						return 0, err
					}
					continue
				}
				staged = true
				s.pending = append(s.pending, pair{pl.dst, s.host[pl.off:][:len(pl.dst)]})
			}
			if staged {
				if err = e.dev.copyDtoH(s.host[:16*blocks], s.dev, i); err != nil {
					return 0, err
				}
			}
		}
		s.sumOff = sumOff
		if err = e.dev.copyDtoH(tab[sumOff:sumOff+16*len(places)], s.table+uint64(sumOff), i); err != nil {
			return 0, err
		}
		s.bytes = 16 * blocks
	}
	return 0, e.flushAll(c)
}

// batchPtrs are a batch kernel's table and the addresses of its sums and
// group table (global).
type batchPtrs struct{ desc, sums, groups string }

func (g *gen) batchPtrs(st start) batchPtrs {
	b := batchPtrs{desc: st.ptr["p_sum"], sums: g.rd(), groups: g.rd()}
	for j, reg := range []string{b.sums, b.groups} {
		o, w := g.r(), g.rd()
		g.in("ld.param.u32 %s, [p_k+%d]", o, kConst+4*j)
		g.in("cvt.u64.u32 %s, %s", w, o)
		g.in("add.u64 %s, %s, %s", reg, b.desc, w)
	}
	return b
}

// batchBlock finds the piece of launch block i (where valid holds: the
// launch's blocks) and returns its message's mask, the block's index in
// its message and the address of the piece's sum. The search steps over
// public lengths only.
func (g *gen) batchBlock(b batchPtrs, i, valid string) (mask word4, idx, sum string) {
	q, o, m := g.r(), g.rd(), g.r()
	g.in("shr.u32 %s, %s, 5", q, i)
	g.in("mul.wide.u32 %s, %s, 4", o, q)
	g.in("add.u64 %s, %s, %s", o, o, b.groups)
	g.in("ld.global.u32 %s, [%s]", m, o)
	loop, done := g.label(), g.label()
	g.mark(loop)
	g.in("@!%s bra %s", valid, done)
	d, end, p := g.rd(), g.r(), g.p()
	g.in("mul.wide.u32 %s, %s, 32", d, m)
	g.in("add.u64 %s, %s, %s", d, d, b.desc)
	g.in("ld.global.u32 %s, [%s+16]", end, d)
	g.in("setp.lt.u32 %s, %s, %s", p, i, end)
	g.in("@%s bra %s", p, done)
	g.in("add.u32 %s, %s, 1", m, m)
	g.in("bra %s", loop)
	g.mark(done)
	d, bias, s := g.rd(), g.r(), g.rd()
	mask, idx, sum = g.fresh4(), g.r(), g.rd()
	g.in("mul.wide.u32 %s, %s, 32", d, m)
	g.in("add.u64 %s, %s, %s", d, d, b.desc)
	g.in("ld.global.v4.u32 %s, [%s]", vec(mask), d)
	g.in("ld.global.u32 %s, [%s+20]", bias, d)
	g.in("sub.u32 %s, %s, %s", idx, i, bias)
	g.in("mul.wide.u32 %s, %s, 16", s, m)
	g.in("add.u64 %s, %s, %s", sum, s, b.sums)
	return mask, idx, sum
}

// batchMask returns block i's mask input: OCB's offset, Offset_0 ^ the
// L_j (shared, lowL) of the bits of the index's Gray code, or RAOCB's
// B ⊞ index, which two AES rounds make the mask; and its sum's address.
func (g *gen) batchMask(k kernel, b batchPtrs, i, valid string) (word4, string) {
	m, idx, sum := g.batchBlock(b, i, valid)
	if k.mask == maskOCB {
		g.xorGray(m, idx, lowL)
		return m, sum
	}
	var x word4
	for j := range x {
		t := g.r()
		g.in("add.u32 %s, %s, %s", t, g.bswap(m[j]), idx)
		x[j] = g.bswap(t)
	}
	return x, sum
}

// redXor XORs x into the 16 bytes at global addr where valid holds.
func (g *gen) redXor(addr string, x word4, valid string) {
	for j := range x {
		g.in("@%s red.global.xor.b32 [%s+%d], %s", valid, addr, 4*j, x[j])
	}
}
