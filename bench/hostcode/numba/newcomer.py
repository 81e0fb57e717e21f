# The newcomer program in Numba: a saxpy, a 2-D kernel, a shared-memory
# reduction, stream and event timing, a ufunc and a gufunc. It is the
# reference for counting host lines (bench/hostcode); nugo's versions are
# ../before and ../after.
import numpy as np
from numba import cuda, vectorize, guvectorize, float32

TPB = 256


@cuda.jit
def saxpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]


@cuda.jit
def add_index(m):
    x, y = cuda.grid(2)
    if y < m.shape[0] and x < m.shape[1]:
        m[y, x] += 10 * y + x


@cuda.jit
def block_sum(x, total):
    buf = cuda.shared.array(TPB, float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = x[i] if i < x.size else 0
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(total, 0, buf[0])


@vectorize(['float64(float64, float64)'], target='cuda')
def hypot2(x, y):
    return x * x + y * y


@guvectorize(['void(float64[:], int64, float64[:])'], '(n),()->(n)', target='cuda')
def moving_average(x, width, out):
    for i in range(x.size):
        lo, hi = max(0, i - width // 2), min(x.size - 1, i + width // 2)
        s = 0.0
        for j in range(lo, hi + 1):
            s += x[j]
        out[i] = s / (hi - lo + 1)


n = 1 << 16
x = np.ones(n, dtype=np.float32)
d_x = cuda.to_device(x)
d_y = cuda.device_array(n, dtype=np.float32)
blocks = (n + TPB - 1) // TPB
saxpy[blocks, TPB](np.float32(2), d_x, d_y)
y = d_y.copy_to_host()

m = np.zeros((30, 40), dtype=np.int32)
add_index[((40 + 15) // 16, (30 + 15) // 16), (16, 16)](m)

total = np.zeros(1, dtype=np.float32)
block_sum[blocks, TPB](d_x, total)

stream = cuda.stream()
start, end = cuda.event(), cuda.event()
start.record(stream)
saxpy[blocks, TPB, stream](np.float32(2), d_x, d_y)
end.record(stream)
end.synchronize()
ms = cuda.event_elapsed_time(start, end)

h = hypot2(np.arange(10.0), np.arange(10.0))
avg = moving_average(np.arange(20.0).reshape(2, 10), 3)
print(y[0], m[2, 3], total[0], ms > 0, h[3], avg[0, :3])
