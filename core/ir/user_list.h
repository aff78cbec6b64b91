// UserList: a node's users in first-use order, as torch.fx keeps node.users
// (an insertion-ordered dict), with O(1) membership and removal however many
// users a node has.
//
// Contract: a user appears at most once; Append takes a user that is not in
// the list. Iteration yields the users in the order they were appended, each
// once. Iterators are invalidated by any change (as std::vector's).
//
// Why not std::vector: removing one user searched and erased in the vector,
// so merging the 50,000 users of one input in cse was quadratic. Lists of up
// to kIndexedFrom users stay a plain array (a search there is a few cache
// lines); a longer one gets a side index from user to slot, and a removal
// leaves a hole (nullptr) that iteration skips, until holes outnumber users
// and the array is compacted (amortised O(1) per removal). One user is kept
// inline, so most nodes (one user) allocate nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace airscope {

class Node;

class UserList {
 public:
  UserList() = default;
  ~UserList();
  UserList(const UserList&) = delete;
  UserList& operator=(const UserList&) = delete;
  UserList(UserList&& other) noexcept;
  UserList& operator=(UserList&& other) noexcept;

  class Iterator {
   public:
    using value_type = Node*;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    Iterator(Node* const* at, Node* const* end) : at_(at), end_(end) { SkipHoles(); }
    Node* operator*() const { return *at_; }
    Iterator& operator++() {
      ++at_;
      SkipHoles();
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator& other) const { return at_ == other.at_; }

   private:
    void SkipHoles() {
      while (at_ != end_ && *at_ == nullptr) ++at_;
    }
    Node* const* at_ = nullptr;
    Node* const* end_ = nullptr;
  };

  Iterator begin() const { return Iterator(slots(), slots() + used_); }
  Iterator end() const { return Iterator(slots() + used_, slots() + used_); }
  size_t size() const { return used_ - holes(); }
  bool empty() const { return size() == 0; }
  Node* front() const { return *begin(); }  // not on an empty list
  std::vector<Node*> ToVector() const { return std::vector<Node*>(begin(), end()); }

  bool Contains(const Node* user) const;
  void Append(Node* user);
  // False (nothing changes) if `user` is not in the list.
  bool Remove(const Node* user);
  void Clear();
  void Reserve(size_t count);

 private:
  static constexpr uint32_t kIndexedFrom = 32;
  struct SideIndex;

  Node* const* slots() const { return capacity_ == 1 ? &one_ : many_; }
  Node** slots() { return capacity_ == 1 ? &one_ : many_; }
  uint32_t holes() const;
  void Grow(size_t min_capacity);
  void BuildIndex();
  void Compact();

  union {
    Node* one_ = nullptr;  // capacity_ == 1: the single slot, inline
    Node** many_;          // capacity_ > 1: a heap array of capacity_ slots
  };
  uint32_t used_ = 0;  // slots in use, holes included
  uint32_t capacity_ = 1;
  SideIndex* index_ = nullptr;  // from kIndexedFrom slots on
};

}  // namespace airscope
