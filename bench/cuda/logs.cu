// logs: a[i][j] = log10(i+j+1) over an n x n float64 array, row-major, with
// x of the 2-D grid along i (rows) as in nugo's and Numba's kernels.
#include "common.h"

__global__ void logs(double *a, long long rows, long long cols) {
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	long long j = (long long)blockIdx.y * blockDim.y + threadIdx.y;
	if (i < rows && j < cols) a[i * cols + j] = log10((double)(i + j + 1));
}

int main(int argc, char **argv) {
	long long n = arg(argc, argv, 10000);
	context();
	double *d;
	CHECK(cudaMalloc(&d, n * n * sizeof(double)));
	Result r = {"logs", n};
	r.bytes = 8.0 * n * n;
	dim3 grid((unsigned)((n + 15) / 16), (unsigned)((n + 15) / 16)), block(16, 16);
	measure(r, [&](cudaStream_t s) { logs<<<grid, block, 0, s>>>(d, n, n); });
	checksum_f(r.check, d, n * n);
	print(r);
	return 0;
}
