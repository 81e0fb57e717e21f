// d2d: device-to-device copy bandwidth (cudaMemcpyDeviceToDevice of n
// float64), the reference the memory-bound workloads are held against;
// bytes counts the read and the write.
#include "common.h"

int main(int argc, char **argv) {
	long long n = arg(argc, argv, 100000000);
	context();
	double *src, *dst;
	CHECK(cudaMalloc(&src, n * sizeof(double)));
	CHECK(cudaMalloc(&dst, n * sizeof(double)));
	CHECK(cudaMemset(src, 0, n * sizeof(double)));
	Result r = {"d2d", n};
	r.bytes = 16.0 * n;
	measure(r, [&](cudaStream_t s) {
		CHECK(cudaMemcpyAsync(dst, src, n * sizeof(double), cudaMemcpyDeviceToDevice, s));
	});
	snprintf(r.check, sizeof r.check, "-");
	print(r);
	return 0;
}
