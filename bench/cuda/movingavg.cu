// movingavg: centred moving average of width elements, truncated at the ends.
// Usage: movingavg N [WIDTH]
#include "common.h"

__global__ void movingavg(const double *x, long long width, double *out, long long n) {
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	long long lo = i - width / 2 > 0 ? i - width / 2 : 0;
	long long hi = i + width / 2 < n - 1 ? i + width / 2 : n - 1;
	double sum = 0;
	for (long long j = lo; j <= hi; j++) sum += x[j];
	out[i] = sum / (double)(hi - lo + 1);
}

int main(int argc, char **argv) {
	long long n = arg(argc, argv, 10000000);
	long long width = argc > 2 ? number(argv[2], 1) : 101;
	context();
	std::vector<double> x(n);
	for (long long i = 0; i < n; i++) x[i] = (double)(i % 1000);
	double *dx, *out;
	CHECK(cudaMalloc(&dx, n * sizeof(double)));
	CHECK(cudaMalloc(&out, n * sizeof(double)));
	CHECK(cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice));
	Result r = {"movingavg", n};
	r.bytes = 16.0 * n;
	unsigned grid = (unsigned)((n + 255) / 256);
	measure(r, [&](cudaStream_t s) { movingavg<<<grid, 256, 0, s>>>(dx, width, out, n); });
	checksum_f(r.check, out, n);
	print(r);
	return 0;
}
