! Static loops of a Fortran program built by flang (LLVM's OpenMP ABI),
! under the drop-in with AUTOSCHED_OMP_LOOPS=static and natively: with
! rising cost, so that learned uneven blocks come after the first region
! instances, each instance checks
!   - two chained `do ... nowait` loops of the same trip count run each
!     iteration on the same thread (OpenMP's guarantee);
!   - a loop stepping down by 3 and a 64-bit loop run every iteration once;
!   - lastprivate comes from the last iteration.
! Usage: static_shapes_f [uneven]: with "uneven", also fails unless the
! first loop's blocks became uneven. Prints "static_shapes_f ok".
program static_shapes_f
  use omp_lib
  implicit none
  integer, parameter :: n = 3000
  integer(8), parameter :: n8 = 2001_8
  integer :: hits(n), owner(n), owner2(n), down(n), i, rep, k, bad, zeros, last
  integer :: hits8(n8)
  integer(8) :: j
  double precision :: x
  logical :: want_uneven, uneven
  character(len=16) :: arg
  want_uneven = .false.
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    want_uneven = trim(arg) == 'uneven'
  end if
  bad = 0
  uneven = .false.
  do rep = 1, 12
    hits = 0
    down = 0
    hits8 = 0
    last = -1
    !$omp parallel private(x, k)
    !$omp do
    do i = 1, n
      hits(i) = hits(i) + 1
      owner(i) = omp_get_thread_num()
      x = 0
      do k = 1, i * 4
        x = x + k
      end do
      if (x < 0) print *, x
    end do
    !$omp end do nowait
    !$omp do
    do i = 1, n
      owner2(i) = omp_get_thread_num()
    end do
    !$omp end do nowait
    !$omp do
    do i = n, 1, -3
      down(i) = down(i) + 1
    end do
    !$omp end do
    !$omp do
    do j = 1_8, n8
      hits8(j) = hits8(j) + 1
    end do
    !$omp end do
    !$omp do lastprivate(last)
    do i = 1, n
      last = i * 7
    end do
    !$omp end do
    !$omp end parallel
    zeros = 0
    do i = 1, n
      if (hits(i) /= 1 .or. owner(i) /= owner2(i)) bad = bad + 1
      if (owner(i) == 0) zeros = zeros + 1
      if (mod(n - i, 3) == 0 .and. down(i) /= 1) bad = bad + 1
      if (mod(n - i, 3) /= 0 .and. down(i) /= 0) bad = bad + 1
    end do
    if (any(hits8 /= 1)) bad = bad + 1
    if (last /= n * 7) bad = bad + 1
    if (zeros > n * 55 / 100) uneven = .true.
  end do
  if (want_uneven .and. .not. uneven) then
    print *, 'the rising loop''s blocks never became uneven'
    bad = bad + 1
  end if
  if (bad == 0) then
    print '(a)', 'static_shapes_f ok'
  else
    print *, 'failures', bad
    stop 1
  end if
end program
