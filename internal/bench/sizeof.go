package bench

import (
	"reflect"
	"unsafe"
)

// contextSize returns the memory, in bytes, that the value v holds: the
// size of its concrete value (the pointed-to value when v is a pointer)
// plus everything reachable from it through pointers, slices (their whole
// capacity), strings, maps (an estimate: keys and elements, not the
// buckets) and interfaces, each block counted once however many times it is
// reached. Function values, channels and unsafe.Pointers are not followed:
// nothing can say what they own. This is the "context size" of Krovetz and
// Rogaway's table: the key-dependent state an AEAD value keeps, read from
// the value itself, so it counts precomputed tables and the Go layout's
// padding as they really are.
func contextSize(v any) int {
	if v == nil {
		return 0
	}
	var s sizer
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		return s.reachable(rv)
	}
	return int(rv.Type().Size()) + s.reachable(rv)
}

// A span is memory already counted: [start, end).
type span struct{ start, end uintptr }

type sizer struct {
	seen []span
}

// first reports whether the size bytes at addr are new, and marks them
// counted. Memory inside a span already counted (a pointer to a field of a
// struct counted whole, or to an element of a counted array) is not new.
func (s *sizer) first(addr, size uintptr) bool {
	for _, b := range s.seen {
		if b.start <= addr && addr+size <= b.end {
			return false
		}
	}
	s.seen = append(s.seen, span{addr, addr + size})
	return true
}

// reachable returns the bytes reachable from v outside v's own storage.
// Reading unexported fields this way is allowed: reflect only forbids
// setting them or turning them back into interfaces.
func (s *sizer) reachable(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type().Elem().Size() == 0 || !s.first(v.Pointer(), v.Type().Elem().Size()) {
			return 0
		}
		return int(v.Type().Elem().Size()) + s.reachable(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		if e.Kind() == reflect.Pointer {
			return s.reachable(e) // stored in the interface itself
		}
		return int(e.Type().Size()) + s.reachable(e) // boxed
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			n += s.reachable(v.Field(i))
		}
		return n
	case reflect.Array:
		n := 0
		if hasPointers(v.Type().Elem()) {
			for i := range v.Len() {
				n += s.reachable(v.Index(i))
			}
		}
		return n
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 || !s.first(v.Pointer(), uintptr(v.Cap())*v.Type().Elem().Size()) {
			return 0
		}
		n := v.Cap() * int(v.Type().Elem().Size())
		if hasPointers(v.Type().Elem()) {
			all := v.Slice(0, v.Cap())
			for i := range all.Len() {
				n += s.reachable(all.Index(i))
			}
		}
		return n
	case reflect.String:
		str := v.String()
		if len(str) == 0 || !s.first(uintptr(unsafe.Pointer(unsafe.StringData(str))), uintptr(len(str))) {
			return 0
		}
		return len(str)
	case reflect.Map:
		if v.IsNil() || !s.first(v.Pointer(), 1) {
			return 0
		}
		t := v.Type()
		n := v.Len() * int(t.Key().Size()+t.Elem().Size())
		for it := v.MapRange(); it.Next(); {
			n += s.reachable(it.Key()) + s.reachable(it.Value())
		}
		return n
	}
	return 0 // scalars hold nothing outside themselves; see contextSize for the rest
}

// hasPointers reports whether values of type t can reach other memory.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.String, reflect.Map:
		return true
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
