// vector add, as examples/vectoradd: c[i] = a[i] + b[i] over float32.
extern "C" __global__ void add(const float* a, const float* b, float* c, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
