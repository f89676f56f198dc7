! One loop shape per compilation (-DSHAPE_<name>, preprocessed: .F90 rules via -cpp),
! like survey.cpp; compiled, never run.
subroutine shape(lo, hi, a)
  implicit none
  integer, intent(in) :: lo, hi
  integer, intent(inout) :: a(*)
  integer :: i
  integer(kind=8) :: k
#if defined(SHAPE_runtime_int)
  !$omp parallel
  !$omp do schedule(runtime)
  do i = lo, hi
    a(i) = a(i) + 1
  end do
  !$omp end do
  !$omp end parallel
#elif defined(SHAPE_runtime_int8)
  !$omp parallel
  !$omp do schedule(runtime)
  do k = int(lo, 8), int(hi, 8)
    a(k) = a(k) + 1
  end do
  !$omp end do
  !$omp end parallel
#elif defined(SHAPE_runtime_negative_step)
  !$omp parallel
  !$omp do schedule(runtime)
  do i = hi, lo, -3
    a(i) = a(i) + 1
  end do
  !$omp end do
  !$omp end parallel
#elif defined(SHAPE_runtime_nowait)
  !$omp parallel
  !$omp do schedule(runtime)
  do i = lo, hi
    a(i) = a(i) + 1
  end do
  !$omp end do nowait
  !$omp end parallel
#elif defined(SHAPE_nonmonotonic_runtime)
  !$omp parallel
  !$omp do schedule(nonmonotonic: runtime)
  do i = lo, hi
    a(i) = a(i) + 1
  end do
  !$omp end do
  !$omp end parallel
#elif defined(SHAPE_parallel_do_runtime)
  !$omp parallel do schedule(runtime)
  do i = lo, hi
    a(i) = a(i) + 1
  end do
  !$omp end parallel do
#elif defined(SHAPE_const_parallel_do_runtime)
  !$omp parallel do schedule(runtime)
  do i = 1, 1000
    a(i) = a(i) + 1
  end do
  !$omp end parallel do
#elif defined(SHAPE_collapse2_runtime)
  !$omp parallel
  !$omp do schedule(runtime) collapse(2)
  do i = lo, hi
    do k = 1, 2
      a(i) = a(i) + int(k)
    end do
  end do
  !$omp end do
  !$omp end parallel
#elif defined(SHAPE_runtime_ordered)
  !$omp parallel
  !$omp do schedule(runtime) ordered
  do i = lo, hi
    !$omp ordered
    a(i) = a(i) + 1
    !$omp end ordered
  end do
  !$omp end do
  !$omp end parallel
#elif defined(SHAPE_dynamic)
  !$omp parallel
  !$omp do schedule(dynamic, 4)
  do i = lo, hi
    a(i) = a(i) + 1
  end do
  !$omp end do
  !$omp end parallel
#elif defined(SHAPE_guided)
  !$omp parallel
  !$omp do schedule(guided)
  do i = lo, hi
    a(i) = a(i) + 1
  end do
  !$omp end do
  !$omp end parallel
#else
#error "compile with -DSHAPE_<name>"
#endif
end subroutine shape
