#include "grpcalloc.h"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define SLUICE_GRPC_PLAIN_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLUICE_GRPC_PLAIN_MALLOC 1
#endif
#endif

namespace sluice::serve {

namespace {

// Each block starts with its size class (or `large`), keeping the payload 16-byte aligned.
constexpr size_t head = 16;
constexpr uint32_t large = 0xff;
constexpr size_t smallest = 64;

size_t classBytes(uint32_t c)
{
    return smallest << c;
}

uint32_t &classOf(void *ptr)
{
    return *reinterpret_cast<uint32_t *>(static_cast<char *>(ptr) - head);
}

} // namespace

GrpcAllocator::GrpcAllocator()
{
    m_mem.mem_user_data = this;
    m_mem.malloc = [](size_t size, void *self) {
        return static_cast<GrpcAllocator *>(self)->allocate(size);
    };
    m_mem.free = [](void *ptr, void *self) { static_cast<GrpcAllocator *>(self)->release(ptr); };
    m_mem.calloc = [](size_t n, size_t size, void *self) -> void * {
        if (size != 0 && n > SIZE_MAX / 2 / size) {
            return nullptr;
        }
        void *p = static_cast<GrpcAllocator *>(self)->allocate(n * size);
        if (p != nullptr) {
            std::memset(p, 0, n * size);
        }
        return p;
    };
    m_mem.realloc = [](void *ptr, size_t size, void *self) {
        return static_cast<GrpcAllocator *>(self)->resize(ptr, size);
    };
}

GrpcAllocator::~GrpcAllocator()
{
    for (Free *&list : m_free) {
        while (Free *f = list) {
            list = f->next;
            std::free(reinterpret_cast<char *>(f) - head);
        }
    }
}

nghttp2_mem *GrpcAllocator::mem()
{
#ifdef SLUICE_GRPC_PLAIN_MALLOC
    return nullptr;
#else
    return &m_mem;
#endif
}

void *GrpcAllocator::allocate(size_t size)
{
    if (size > SIZE_MAX / 2) {
        return nullptr;
    }
    if (size > classBytes(classes - 1)) {
        auto *block = static_cast<char *>(std::malloc(head + size));
        if (block == nullptr) {
            return nullptr;
        }
        *reinterpret_cast<uint32_t *>(block) = large;
        return block + head;
    }
    const uint32_t c = size <= smallest ? 0 : uint32_t(std::bit_width((size - 1) / smallest));
    if (Free *f = m_free[c]) {
        m_free[c] = f->next;
        m_cachedBytes -= classBytes(c);
        return f;
    }
    auto *block = static_cast<char *>(std::malloc(head + classBytes(c)));
    if (block == nullptr) {
        return nullptr;
    }
    *reinterpret_cast<uint32_t *>(block) = c;
    return block + head;
}

void GrpcAllocator::release(void *ptr)
{
    if (ptr == nullptr) {
        return;
    }
    const uint32_t c = classOf(ptr);
    if (c == large || m_cachedBytes + classBytes(c) > cacheBytes) {
        std::free(static_cast<char *>(ptr) - head);
        return;
    }
    auto *f = ::new (ptr) Free{m_free[c]};
    m_free[c] = f;
    m_cachedBytes += classBytes(c);
}

void *GrpcAllocator::resize(void *ptr, size_t size)
{
    if (ptr == nullptr) {
        return allocate(size);
    }
    const uint32_t c = classOf(ptr);
    if (c == large && size > classBytes(classes - 1) && size <= SIZE_MAX / 2) {
        auto *block =
            static_cast<char *>(std::realloc(static_cast<char *>(ptr) - head, head + size));
        return block == nullptr ? nullptr : block + head;
    }
    if (c != large && size <= classBytes(c)) {
        return ptr;
    }
    void *moved = allocate(size);
    if (moved == nullptr) {
        return nullptr;
    }
    // A large block shrinking into a class keeps the class's bytes; a class growing, its own.
    std::memcpy(moved, ptr, c == large ? size : classBytes(c));
    release(ptr);
    return moved;
}

} // namespace sluice::serve
