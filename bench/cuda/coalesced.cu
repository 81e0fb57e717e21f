// coalesced / permuted: out[i] = log10(i+1) in order, or out[j] = log10(j+1)
// for j = perm[i], a random permutation. Usage: coalesced N [permuted]
#include <cstring>

#include "common.h"

__global__ void in_order(double *out, long long n) {
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) out[i] = log10((double)(i + 1));
}

__global__ void permuted(const int *perm, double *out, long long n) {
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		long long j = perm[i];
		out[j] = log10((double)(j + 1));
	}
}

static unsigned long long splitmix(unsigned long long &x) {
	unsigned long long z = (x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int main(int argc, char **argv) {
	long long n = arg(argc, argv, 100000000);
	bool perm = argc > 2 && strcmp(argv[2], "permuted") == 0;
	if (argc > 2 && !perm) usage("the second argument can only be permuted, not", argv[2]);
	context();
	double *out;
	CHECK(cudaMalloc(&out, n * sizeof(double)));
	Result r = {perm ? "permuted" : "coalesced", n};
	r.bytes = 8.0 * n;
	unsigned grid = (unsigned)((n + 255) / 256);
	if (!perm) {
		measure(r, [&](cudaStream_t s) { in_order<<<grid, 256, 0, s>>>(out, n); });
	} else {
		std::vector<int> p(n);
		for (long long i = 0; i < n; i++) p[i] = (int)i;
		unsigned long long seed = 1;
		for (long long i = n - 1; i > 0; i--) std::swap(p[i], p[splitmix(seed) % (i + 1)]);
		int *dp;
		CHECK(cudaMalloc(&dp, n * sizeof(int)));
		CHECK(cudaMemcpy(dp, p.data(), n * sizeof(int), cudaMemcpyHostToDevice));
		r.bytes += 4.0 * n;
		measure(r, [&](cudaStream_t s) { permuted<<<grid, 256, 0, s>>>(dp, out, n); });
	}
	checksum_f(r.check, out, n);
	print(r);
	return 0;
}
