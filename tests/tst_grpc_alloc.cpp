// GrpcAllocator, the gRPC port's allocator for libnghttp2: blocks handed out whole and aligned,
// their bytes kept through realloc across sizes, calloc zeroed and refusing an overflow, freed
// blocks reused, and what it keeps bounded (cacheBytes) however many blocks come back. Built
// with AddressSanitizer it hands nghttp2 nothing (its own malloc): the test says so and stops.

#include "app/serve/grpcalloc.h"

#include <QtTest>

#include <cstdint>
#include <cstring>
#include <vector>

using sluice::serve::GrpcAllocator;

class TestGrpcAlloc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Built with AddressSanitizer the allocator hands nghttp2 no table: every test stops here.
    void init()
    {
        if (GrpcAllocator().mem() == nullptr) {
            QSKIP("AddressSanitizer build: nghttp2 allocates with its own malloc");
        }
    }

    void blocksWholeAndReused()
    {
        GrpcAllocator a;
        nghttp2_mem *m = a.mem();
        for (const size_t size : {size_t(0), size_t(1), size_t(64), size_t(65), size_t(200),
                                  size_t(2048), size_t(2049), size_t(100000)}) {
            auto *p = static_cast<unsigned char *>(m->malloc(size, m->mem_user_data));
            QVERIFY(p != nullptr);
            QCOMPARE(reinterpret_cast<uintptr_t>(p) % 16, uintptr_t(0));
            std::memset(p, 0xab, size); // the whole block is ours (ASan-free builds: valgrind)
            m->free(p, m->mem_user_data);
            if (size <= 2048) {
                // The block just freed is the next of its size.
                QCOMPARE(m->malloc(size, m->mem_user_data), static_cast<void *>(p));
                m->free(p, m->mem_user_data);
            }
        }
        m->free(nullptr, m->mem_user_data);
    }

    void reallocKeepsBytes()
    {
        GrpcAllocator a;
        nghttp2_mem *m = a.mem();
        auto *p = static_cast<unsigned char *>(m->realloc(nullptr, 10, m->mem_user_data));
        for (int i = 0; i < 10; ++i) {
            p[i] = static_cast<unsigned char>(i);
        }
        // Within its class, to a larger class, to a large block, larger still, back to a class.
        for (const size_t size :
             {size_t(60), size_t(1000), size_t(5000), size_t(70000), size_t(100)}) {
            p = static_cast<unsigned char *>(m->realloc(p, size, m->mem_user_data));
            QVERIFY(p != nullptr);
            for (int i = 0; i < 10; ++i) {
                QCOMPARE(int(p[i]), i);
            }
        }
        m->free(p, m->mem_user_data);
    }

    void callocZeroedAndChecked()
    {
        GrpcAllocator a;
        nghttp2_mem *m = a.mem();
        auto *dirty = static_cast<unsigned char *>(m->malloc(500, m->mem_user_data));
        std::memset(dirty, 0xff, 500);
        m->free(dirty, m->mem_user_data);
        auto *p = static_cast<unsigned char *>(m->calloc(5, 100, m->mem_user_data));
        QCOMPARE(static_cast<void *>(p), static_cast<void *>(dirty)); // reused, and zeroed
        for (int i = 0; i < 500; ++i) {
            QCOMPARE(int(p[i]), 0);
        }
        m->free(p, m->mem_user_data);
        QCOMPARE(m->calloc(SIZE_MAX / 4, 8, m->mem_user_data), nullptr);
        QCOMPARE(m->malloc(SIZE_MAX - 4, m->mem_user_data), nullptr);
    }

    void keepsABoundedCache()
    {
        GrpcAllocator a;
        nghttp2_mem *m = a.mem();
        std::vector<void *> blocks;
        for (int i = 0; i < 3000; ++i) {
            blocks.push_back(m->malloc(size_t(64) << (i % 6), m->mem_user_data));
        }
        for (void *p : blocks) {
            m->free(p, m->mem_user_data);
            QVERIFY(a.cachedBytes() <= GrpcAllocator::cacheBytes);
        }
        QVERIFY(a.cachedBytes() > GrpcAllocator::cacheBytes - 2048); // filled, then capped
    }
};

QTEST_GUILESS_MAIN(TestGrpcAlloc)
#include "tst_grpc_alloc.moc"
