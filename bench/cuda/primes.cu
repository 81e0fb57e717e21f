// primes: the sum of the prime factors of every integer 2..N, one thread per
// number, by trial division in 32-bit arithmetic below 2^32 (as nugo's
// internal/primes.FactorSum).
#include "common.h"

__device__ unsigned long long factor_sum32(unsigned int n) {
	unsigned long long sum = 0;
	while (n > 1 && n % 2 == 0) {
		sum += 2;
		n /= 2;
	}
	for (unsigned int f = 3; (unsigned long long)f * f <= n; f += 2) {
		while (n % f == 0) {
			sum += f;
			n /= f;
		}
	}
	if (n > 1) sum += n;
	return sum;
}

__device__ long long factor_sum(long long n) {
	if (n >= 0 && n <= 0xffffffffLL) return (long long)factor_sum32((unsigned int)n);
	long long sum = 0;
	while (n > 1 && n % 2 == 0) {
		sum += 2;
		n /= 2;
	}
	for (long long f = 3; f * f <= n; f += 2) {
		while (n % f == 0) {
			sum += f;
			n /= f;
		}
	}
	if (n > 1) sum += n;
	return sum;
}

__global__ void primes(long long start, long long *out, long long n) {
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) out[i] = factor_sum(start + i);
}

int main(int argc, char **argv) {
	long long N = arg(argc, argv, 1000000, 2), n = N - 1;
	context();
	long long *out;
	CHECK(cudaMalloc(&out, n * sizeof(long long)));
	Result r = {"primes", N};
	unsigned grid = (unsigned)((n + 255) / 256);
	measure(r, [&](cudaStream_t s) { primes<<<grid, 256, 0, s>>>(2, out, n); });
	std::vector<long long> h(n);
	CHECK(cudaMemcpy(h.data(), out, n * sizeof(long long), cudaMemcpyDeviceToHost));
	long long sum = 0;
	for (long long v : h) sum += v;
	snprintf(r.check, sizeof r.check, "%lld", sum);
	print(r);
	return 0;
}
