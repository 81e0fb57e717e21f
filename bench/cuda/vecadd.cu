// vecadd: c = a + b over n float32.
#include "common.h"

__global__ void vecadd(const float *a, const float *b, float *c, long long n) {
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
	long long n = arg(argc, argv, 100000000);
	context();
	std::vector<float> a(n), b(n);
	for (long long i = 0; i < n; i++) {
		a[i] = (float)(i % 1024);
		b[i] = (float)(2 * (i % 512));
	}
	float *da, *db, *dc;
	CHECK(cudaMalloc(&da, n * sizeof(float)));
	CHECK(cudaMalloc(&db, n * sizeof(float)));
	CHECK(cudaMalloc(&dc, n * sizeof(float)));
	CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
	Result r = {"vecadd", n};
	r.bytes = 12.0 * n;
	unsigned grid = (unsigned)((n + 255) / 256);
	measure(r, [&](cudaStream_t s) { vecadd<<<grid, 256, 0, s>>>(da, db, dc, n); });
	checksum_f(r.check, dc, n);
	print(r);
	return 0;
}
