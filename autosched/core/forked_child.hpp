#pragma once
/// @file
/// Whether this process is the child of a fork() made while autosched was in
/// use. Only the forking thread survives a fork; a lock another thread held
/// at that moment (a loop opening, a decision being stored) stays locked in
/// the child for ever, and SQLite forbids using a connection across fork. So
/// a child forked after the library ran its first loop touches none of that
/// state: the drop-in hands its loops to the OpenMP runtime, the native API
/// runs them on a plain static split, and nothing is recorded or reported.
/// A child forked before the first loop (a daemon, a launcher forking its
/// workers at start) inherits nothing in use and runs as any process does.
///
///   note_in_use();                  // on the way into a loop, before any lock
///   if (in_forked_child()) …        // the lock-free path

namespace autosched {

/// Marks the library as in use: a fork from now on makes a "forked child".
/// A load and, once per process, a store: cheap enough for every instance.
void note_in_use() noexcept;

/// True in the child of a fork made after note_in_use().
bool in_forked_child() noexcept;

/// Says once per process, on stderr, what a forked child does instead. By
/// write(2): the lock of any other way to warn may be held by a thread the
/// fork left behind.
void say_forked_child_once() noexcept;

}  // namespace autosched
