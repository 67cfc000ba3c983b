#pragma once
// ChunkedArray is an append-only array stored in fixed-size chunks: growing it never moves or
// copies what it holds, so appending millions of records costs no reallocation pause (a vector
// doubling from 100 to 200 MB stalls the parse for tens of ms and briefly holds both copies) and
// references to elements stay valid. Indexing is one shift and one mask; iterators are random
// access, so std::stable_sort and std::inplace_merge work on it. Holds TraceEventBuffer's slice
// records and flow endpoints.

#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>
#include <vector>

namespace stepscope {

template <class T, size_t kChunkShift = 16>
class ChunkedArray {
public:
    static constexpr size_t kChunkSize = size_t(1) << kChunkShift;

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }

    void push_back(const T &value) {
        if ((m_size & (kChunkSize - 1)) == 0 && (m_size >> kChunkShift) == m_chunks.size())
            m_chunks.push_back(std::make_unique_for_overwrite<T[]>(kChunkSize));
        m_chunks[m_size >> kChunkShift][m_size & (kChunkSize - 1)] = value;
        ++m_size;
    }

    T &operator[](size_t i) { return m_chunks[i >> kChunkShift][i & (kChunkSize - 1)]; }
    const T &operator[](size_t i) const { return m_chunks[i >> kChunkShift][i & (kChunkSize - 1)]; }

    void clear() {
        m_chunks.clear();
        m_size = 0;
    }

    template <bool kConst>
    class Iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = std::conditional_t<kConst, const T *, T *>;
        using reference = std::conditional_t<kConst, const T &, T &>;
        using Array = std::conditional_t<kConst, const ChunkedArray, ChunkedArray>;

        Iterator() = default;
        Iterator(Array *array, size_t index) : m_array(array), m_index(index) {}

        reference operator*() const { return (*m_array)[m_index]; }
        pointer operator->() const { return &(*m_array)[m_index]; }
        reference operator[](difference_type n) const { return (*m_array)[size_t(difference_type(m_index) + n)]; }
        Iterator &operator++() { ++m_index; return *this; }
        Iterator operator++(int) { Iterator old = *this; ++m_index; return old; }
        Iterator &operator--() { --m_index; return *this; }
        Iterator operator--(int) { Iterator old = *this; --m_index; return old; }
        Iterator &operator+=(difference_type n) { m_index = size_t(difference_type(m_index) + n); return *this; }
        Iterator &operator-=(difference_type n) { m_index = size_t(difference_type(m_index) - n); return *this; }
        friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
        friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
        friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const Iterator &a, const Iterator &b) {
            return difference_type(a.m_index) - difference_type(b.m_index);
        }
        friend bool operator==(const Iterator &a, const Iterator &b) { return a.m_index == b.m_index; }
        friend auto operator<=>(const Iterator &a, const Iterator &b) { return a.m_index <=> b.m_index; }

    private:
        Array *m_array = nullptr;
        size_t m_index = 0;
    };
    using iterator = Iterator<false>;
    using const_iterator = Iterator<true>;

    iterator begin() { return {this, 0}; }
    iterator end() { return {this, m_size}; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, m_size}; }
private:
    std::vector<std::unique_ptr<T[]>> m_chunks;
    size_t m_size = 0;
};

} // namespace stepscope
