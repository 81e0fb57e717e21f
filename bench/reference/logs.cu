// The 2-D logs kernel of examples/logs: a[i][j] = log10(i+j+1), row-major.
extern "C" __global__ void logs(double* a, long rows, long cols) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    long j = (long)blockIdx.y * blockDim.y + threadIdx.y;
    if (i < rows && j < cols) a[i * cols + j] = __nv_log10((double)(i + j + 1));
}
