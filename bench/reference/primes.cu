// The prime-factor-sum kernel of examples/primes, with 64-bit integers as
// in Go (int64): trial division in a device function.
__device__ long long primeFactorSum(long long n) {
    long long s = 0;
    while (n > 1 && n % 2 == 0) { s += 2; n /= 2; }
    for (long long f = 3; f * f <= n; f += 2) {
        while (n % f == 0) { s += f; n /= f; }
    }
    if (n > 1) s += n;
    return s;
}

extern "C" __global__ void factorSums(long long* out, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = primeFactorSum((long long)i + 2);
}
