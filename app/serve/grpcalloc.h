#pragma once

#include <nghttp2/nghttp2.h>

#include <cstddef>

namespace sluice::serve {

// One HTTP/2 connection's allocator for libnghttp2 (nghttp2_session_server_new3): blocks of a
// few fixed sizes (64 to 2048 bytes) freed by the session are kept on a free list per size and
// handed out again, so a call's frames, stream and header copies cost no malloc/free once the
// connection has warmed up. Bounded: at most cacheBytes of free blocks kept (the rest go back
// to the C library at once); larger blocks are plain malloc; everything kept is freed with the
// allocator, which outlives its session. Under AddressSanitizer mem() is null (nghttp2's own
// malloc), so the fuzzer and the sanitizer build still see a use after free.
class GrpcAllocator
{
public:
    static constexpr size_t cacheBytes = 32 * 1024;

    GrpcAllocator();
    ~GrpcAllocator();
    GrpcAllocator(const GrpcAllocator &) = delete;
    GrpcAllocator &operator=(const GrpcAllocator &) = delete;

    // For nghttp2_session_server_new3 (null: nghttp2's default allocator).
    nghttp2_mem *mem();
    size_t cachedBytes() const { return m_cachedBytes; }

private:
    static constexpr int classes = 6; // 64, 128, 256, 512, 1024, 2048
    struct Free
    {
        Free *next;
    };
    void *allocate(size_t size);
    void release(void *ptr);
    void *resize(void *ptr, size_t size);

    Free *m_free[classes] = {};
    size_t m_cachedBytes = 0;
    nghttp2_mem m_mem;
};

} // namespace sluice::serve
