package tiny

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

func BenchmarkSum(b *testing.B) {
	xs := make([]int, 1024)
	for i := 0; i < b.N; i++ {
		s := 0
		for _, x := range xs {
			s += x
		}
		_ = s
	}
}

func BenchmarkJoin(b *testing.B) {
	b.ReportAllocs()
	parts := []string{"a", "b", "c", "d"}
	for i := 0; i < b.N; i++ {
		_ = strings.Join(parts, ",")
	}
}

func BenchmarkSort(b *testing.B) {
	for _, n := range []int{16, 256} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				xs := make([]int, n)
				for j := range xs {
					xs[j] = n - j
				}
				sort.Ints(xs)
			}
		})
	}
}
