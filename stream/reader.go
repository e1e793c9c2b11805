package stream

import (
	"errors"
	"io"
	"runtime"
	"sync"
)

// NewReader reads and verifies the header of the encrypted file r and
// returns a Reader of its plaintext. key is the passphrase if the file was
// encrypted with one (the header says so), otherwise the key.
//
// A wrong key or passphrase, or a damaged header, is reported here as
// ErrWrongKey or ErrWrongPassphrase. The Reader returns no byte of a chunk
// before the whole chunk is verified; a chunk that fails returns a
// *ChunkError after the plaintext of the chunks before it, and io.EOF comes
// only after the last chunk verified. The Reader reads ahead of what it
// returns, and opens chunks on all cores. A header that asks for more
// Argon2id work than the default Limits allow fails with a *CostError.
func NewReader(r io.Reader, key []byte) (io.Reader, error) {
	return Limits{}.NewReader(r, key)
}

// NewReader is the package's NewReader under the Limits l.
func (l Limits) NewReader(r io.Reader, key []byte) (io.Reader, error) {
	h, mac, err := parseHeader(func(n int) ([]byte, error) {
		buf := make([]byte, n)
		k, err := io.ReadFull(r, buf)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = errTruncatedHeader
		}
		return buf[:k], err
	})
	if err != nil {
		return nil, err
	}
	if err := l.check(h); err != nil {
		return nil, err
	}
	s, err := h.verify(key, mac)
	if err != nil {
		return nil, err
	}
	rd := &reader{r: r}
	rd.p = newPipeline(s, s.chunk+s.tag, s.chunk, rd.open)
	return rd, nil
}

type reader struct {
	r       io.Reader
	p       *pipeline
	buf     []byte  // verified plaintext not yet returned
	cur     *batch  // the batch buf belongs to
	carry   [1]byte // a byte read past the last batch read
	carried bool    // whether carry holds one
	ended   bool    // r has no more batches to give
	rerr    error   // what ended r: io.EOF or a read error
	err     error   // sticky: returned once buf is empty
}

// open opens the chunks of b's ciphertext into b.out, up to the first that
// fails.
func (rd *reader) open(b *batch) {
	s := rd.p.suite
	ct, out, i := b.in[:b.n], b.out[:0], b.first
	for {
		k := min(len(ct), s.chunk+s.tag)
		last := b.final && k == len(ct)
		// Only the last chunk may be short, and only an empty file's is empty.
		if k < s.tag || k == s.tag && i > 0 {
			b.err = &ChunkError{i}
			break
		}
		pt, err := s.aead.Open(out, s.nonce(b.nonce, i, last), ct[:k], nil)
		if err != nil {
			b.err = &ChunkError{i}
			break
		}
		out, ct, i = pt, ct[k:], i+1
		if last || len(ct) == 0 {
			break
		}
	}
	b.res = out
}

// fill reads batches from r and starts them, as long as there are free
// batches.
func (rd *reader) fill() {
	for !rd.ended {
		b := rd.p.get()
		if b == nil {
			return
		}
		if rd.carried {
			b.in[0] = rd.carry[0]
			b.n = 1
		}
		k, err := io.ReadFull(rd.r, b.in[b.n:])
		b.n += k
		switch {
		case err == nil: // full, and one byte more: not the last batch
			b.n--
			rd.carry[0], rd.carried = b.in[b.n], true
			rd.p.start(b)
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			b.final = true
			rd.p.start(b)
			rd.ended, rd.rerr = true, io.EOF
		default:
			rd.p.put(b)
			rd.ended, rd.rerr = true, err
		}
	}
}

// next makes the plaintext of the next batch, or the error that ends the
// stream, the reader's to return.
func (rd *reader) next() {
	if rd.cur != nil {
		rd.p.put(rd.cur)
		rd.cur = nil
	}
	rd.fill()
	b := rd.p.head(true)
	if b == nil {
		rd.err = rd.rerr
		return
	}
	rd.cur, rd.buf = b, b.res
	if b.err != nil {
		rd.err = b.err
	} else if b.final {
		rd.err = io.EOF
	}
}

func (rd *reader) Read(p []byte) (int, error) {
	for len(rd.buf) == 0 {
		if rd.err != nil {
			return 0, rd.err
		}
		rd.next()
	}
	n := copy(p, rd.buf)
	rd.buf = rd.buf[n:]
	return n, nil
}

// WriteTo writes the plaintext to w straight from the batches.
func (rd *reader) WriteTo(w io.Writer) (n int64, err error) {
	for {
		if len(rd.buf) > 0 {
			k, err := w.Write(rd.buf)
			n += int64(k)
			rd.buf = rd.buf[k:]
			if err != nil {
				return n, err
			}
			continue
		}
		if rd.err == io.EOF {
			return n, nil
		} else if rd.err != nil {
			return n, rd.err
		}
		rd.next()
	}
}

// NewReaderAt reads and verifies the header of the encrypted file r, of
// size bytes, and returns a ReaderAt of its plaintext; key is as for
// NewReader. It also verifies the last chunk, which authenticates the
// file's length. ReadAt then decrypts and verifies only the chunks a read
// covers and returns only verified bytes: if a chunk fails, n counts the
// bytes before it and the error is a *ChunkError. Reads past the
// plaintext's end return io.EOF. The data in r must not change while it is
// read. ReadAt is safe for concurrent use; it opens the chunks of a long
// read on all cores. The ReaderAt also has a method Size() int64, which
// returns the plaintext's length. A header that asks for more Argon2id work
// than the default Limits allow fails with a *CostError.
func NewReaderAt(r io.ReaderAt, size int64, key []byte) (io.ReaderAt, error) {
	return Limits{}.NewReaderAt(r, size, key)
}

// NewReaderAt is the package's NewReaderAt under the Limits l.
func (l Limits) NewReaderAt(r io.ReaderAt, size int64, key []byte) (io.ReaderAt, error) {
	if size < 0 {
		return nil, errors.New("stream: negative size")
	}
	head := make([]byte, min(size, int64(maxHeaderSize)))
	if n, err := r.ReadAt(head, 0); n < len(head) {
		if err == io.EOF {
			err = errTruncatedHeader
		}
		return nil, err
	}
	off := 0
	h, mac, err := parseHeader(func(n int) ([]byte, error) {
		if len(head)-off < n {
			return head[off:], errTruncatedHeader
		}
		off += n
		return head[off-n : off], nil
	})
	if err != nil {
		return nil, err
	}
	if err := l.check(h); err != nil {
		return nil, err
	}
	s, err := h.verify(key, mac)
	if err != nil {
		return nil, err
	}
	ra := &readerAt{r: r, suite: s, start: int64(off)}
	// Chunks of chunk+tag bytes; the last one may be shorter, and is empty
	// only in an empty file. (No rounding up by adding full-1: body may be
	// within a chunk of 2^63.)
	body, full := size-ra.start, int64(s.chunk+s.tag)
	ra.chunks = body / full
	if body%full != 0 || ra.chunks == 0 {
		ra.chunks++
	}
	lastSize := body - (ra.chunks-1)*full
	ra.size = body - ra.chunks*int64(s.tag)
	if lastSize < int64(s.tag) || lastSize == int64(s.tag) && ra.chunks > 1 {
		return nil, &ChunkError{uint64(ra.chunks - 1)}
	}
	buf := make([]byte, lastSize)
	if err := ra.open(buf, buf, ra.chunks-1, s.newNonce()); err != nil {
		return nil, err
	}
	return ra, nil
}

type readerAt struct {
	r      io.ReaderAt
	*suite       // chunk is its plaintext bytes per chunk
	start  int64 // where chunk 0 begins
	chunks int64 // the number of chunks
	size   int64 // plaintext bytes
	bufs   sync.Pool
}

// A scratch is one goroutine's buffers for opening chunks.
type scratch struct{ ct, nonce []byte }

// open reads chunk i and opens it into dst, which has room for it and is
// either disjoint from ct, which has room for the ciphertext, or ct itself.
func (ra *readerAt) open(dst, ct []byte, i int64, nonce []byte) error {
	ct = ct[:ra.plainSize(i)+ra.tag]
	if n, err := ra.r.ReadAt(ct, ra.start+i*int64(ra.chunk+ra.tag)); n < len(ct) {
		if err == io.EOF {
			return &ChunkError{uint64(i)} // the file shrank
		}
		return err
	}
	if _, err := ra.aead.Open(dst[:0], ra.nonce(nonce, uint64(i), i == ra.chunks-1), ct, nil); err != nil {
		return &ChunkError{uint64(i)}
	}
	return nil
}

var errNegativeOffset = errors.New("stream: negative offset")

// ReadAt reads len(p) bytes of plaintext from off, or up to its end with
// io.EOF.
func (ra *readerAt) ReadAt(p []byte, off int64) (n int, err error) {
	switch {
	case off < 0:
		return 0, errNegativeOffset
	case len(p) == 0:
		return 0, nil
	case off >= ra.size:
		return 0, io.EOF
	}
	end := off + int64(len(p))
	if end > ra.size || end < off {
		end, err = ra.size, io.EOF
	}
	p = p[:end-off]
	chunk := int64(ra.chunk)
	first, last := off/chunk, (end-1)/chunk

	// Split the chunks among goroutines in runs; the first failure, in
	// file order, decides what is returned.
	workers := int64(min(runtime.GOMAXPROCS(0), int(last-first+1)))
	errs := make([]error, workers)
	failed := make([]int64, workers)
	run := func(w int64) {
		sc, _ := ra.bufs.Get().(*scratch)
		if sc == nil {
			sc = &scratch{make([]byte, ra.chunk+ra.tag), ra.newNonce()}
		}
		defer ra.bufs.Put(sc)
		n := last - first + 1
		for i := first + n*w/workers; i < first+n*(w+1)/workers; i++ {
			lo, hi := max(off, i*chunk), min(end, (i+1)*chunk)
			dst := p[lo-off : hi-off]
			var err error
			if hi-lo == int64(ra.plainSize(i)) {
				err = ra.open(dst, sc.ct, i, sc.nonce)
			} else if err = ra.open(sc.ct, sc.ct, i, sc.nonce); err == nil {
				copy(dst, sc.ct[lo-i*chunk:])
			}
			if err != nil {
				errs[w], failed[w] = err, lo-off
				return
			}
		}
	}
	if workers == 1 {
		run(0)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { run(w) })
		}
		wg.Wait()
	}
	for w := range workers {
		if errs[w] != nil {
			clear(p[failed[w]:])
			return int(failed[w]), errs[w]
		}
	}
	return len(p), err
}

// Size returns the plaintext's length.
func (ra *readerAt) Size() int64 { return ra.size }

// plainSize returns the plaintext bytes of chunk i.
func (ra *readerAt) plainSize(i int64) int {
	if i == ra.chunks-1 {
		return int(ra.size - i*int64(ra.chunk))
	}
	return ra.chunk
}
