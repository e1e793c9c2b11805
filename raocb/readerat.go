package raocb

import (
	"crypto/subtle"
	"errors"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/faelabs/fae/internal/ocbmode"
	"github.com/faelabs/fae/internal/words"
)

// verifyChunk is how much ciphertext each goroutine reads and decrypts at a
// time while NewReaderAt verifies.
const verifyChunk = 128 << 10

type readerAt struct {
	a *AEAD
	b [blockSize]byte // the message's base, E(Nonce)
	r io.ReaderAt
	n int64 // ciphertext length, without the tag
}

// NewReaderAt gives random read access to the plaintext of a sealed message:
// r holds size bytes, the ciphertext || tag that a.Seal wrote for nonce and
// ad.
//
// It first reads the whole ciphertext once and verifies the tag, decrypting
// in chunks on up to GOMAXPROCS goroutines without keeping the plaintext, in
// memory bounded by GOMAXPROCS times 128 KiB; it returns an error if the tag
// does not match or r fails. The ReaderAt it returns then decrypts, for each
// ReadAt, only the blocks that cover the range asked for, and reads nothing
// else. Its size is size-a.Overhead().
//
// The verification holds only for the bytes read during it: the data behind
// r must not change after NewReaderAt returns. Changed ciphertext would be
// decrypted by later ReadAt calls without any error (see DecryptBlocks).
// The returned ReaderAt is safe for concurrent use if r is.
func NewReaderAt(a *AEAD, nonce []byte, r io.ReaderAt, size int64, ad []byte) (io.ReaderAt, error) {
	if len(nonce) != a.nonceSize {
		return nil, errors.New("raocb: incorrect nonce length given to NewReaderAt")
	}
	if size < int64(a.tagSize) {
		return nil, errOpen
	}
	n := size - int64(a.tagSize)
	if !ocbmode.RangeFits(0, uint64(n)) || !ocbmode.ADFits(uint64(len(ad))) {
		return nil, errTooLong
	}
	ra := &readerAt{a: a, b: a.base(nonce), r: r, n: n}
	if err := ra.verify(ad); err != nil {
		return nil, err
	}
	return ra, nil
}

// verify recomputes the tag: the checksum of the full blocks comes from
// chunks decrypted in parallel (XOR does not care about order), then the
// final partial block and the tag are read.
func (ra *readerAt) verify(ad []byte) error {
	full := ra.n &^ (blockSize - 1)
	chunks := (full + verifyChunk - 1) / verifyChunk
	workers := int(min(int64(runtime.GOMAXPROCS(0)), chunks))
	sums := make([][blockSize]byte, workers)
	errs := make([]error, workers)
	var next atomic.Int64
	var failed atomic.Bool
	work := func(w int) {
		buf := make([]byte, min(verifyChunk, full))
		for !failed.Load() {
			c := next.Add(1) - 1
			if c >= chunks {
				return
			}
			off := c * verifyChunk
			p := buf[:min(verifyChunk, full-off)]
			if err := readFull(ra.r, p, off); err != nil {
				errs[w] = err
				failed.Store(true)
				return
			}
			ra.a.blocks(decrypt, p, p, addIndex(ra.b, uint64(off/blockSize)), &sums[w])
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { work(w) })
	}
	if workers > 0 {
		work(0)
	}
	wg.Wait()
	var sum [blockSize]byte
	for w := range workers {
		if errs[w] != nil {
			return errs[w]
		}
		sum = xor(sum, sums[w])
	}

	tail := make([]byte, ra.n-full+int64(ra.a.tagSize))
	if err := readFull(ra.r, tail, full); err != nil {
		return err
	}
	c, want := tail[:ra.n-full], tail[ra.n-full:]
	if len(c) > 0 {
		pad := ra.a.encryptMasked(&ra.b, ocbmode.PartialIndex(uint64(full)), words.Block{}).Bytes()
		subtle.XORBytes(c, c, pad[:])
		sum = xor(sum, ocbmode.Padded(c).Bytes())
	}
	tag := ra.a.tag(&ra.b, sum, uint64(ra.n), ad).Bytes()
	if subtle.ConstantTimeCompare(tag[:ra.a.tagSize], want) != 1 {
		return errOpen
	}
	return nil
}

// ReadAt reads len(p) bytes of plaintext from offset off, as io.ReaderAt,
// decrypting only the blocks that cover them. Whole blocks are read and
// decrypted in p itself.
func (ra *readerAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("raocb: negative offset")
	}
	if off >= ra.n {
		return 0, io.EOF
	}
	var eof error
	if rest := ra.n - off; int64(len(p)) > rest {
		p = p[:rest]
		eof = io.EOF
	}
	n := 0
	if off%blockSize != 0 {
		k, err := ra.within(p, off)
		if err != nil {
			return 0, err
		}
		n = k
	}
	// Whole blocks, and the message's final partial block if p reaches it.
	if pos := off + int64(n); n < len(p) {
		end := off + int64(len(p))
		if end != ra.n {
			end &^= blockSize - 1
		}
		if end > pos {
			c := p[n : n+int(end-pos)]
			if err := readFull(ra.r, c, pos); err != nil {
				return n, err
			}
			ra.a.crypt(decrypt, c, c, &ra.b, uint64(pos/blockSize))
			n += len(c)
		}
	}
	if n < len(p) {
		k, err := ra.within(p[n:], off+int64(n))
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, eof
}

// within decrypts the block that holds offset off and copies as much of it
// into p as fits from off.
func (ra *readerAt) within(p []byte, off int64) (int, error) {
	start := off &^ (blockSize - 1)
	var buf [blockSize]byte
	c := buf[:min(blockSize, ra.n-start)]
	if err := readFull(ra.r, c, start); err != nil {
		return 0, err
	}
	ra.a.crypt(decrypt, c, c, &ra.b, uint64(start/blockSize))
	return copy(p, c[off-start:]), nil
}

// readFull reads exactly len(p) bytes at off; io.ReaderAt may report io.EOF
// along with a full read at the end of its data.
func readFull(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}
