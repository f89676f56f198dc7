! tests/omp/shapes.f90 — `!$omp do schedule(runtime)` as a Fortran code writes
! it, built with gfortran (libgomp) and run natively and under the drop-in
! with every schedule (run_shapes.cmake). Like shapes.cpp: each shape counts
! every iteration (each must run once) and, when the driver says the drop-in
! takes loops (DROPIN_EXPECT_TAKEN=1), checks how many loop instances it
! scheduled. The counts come from fortran_probe.c through bind(C).
module probe
  use iso_c_binding
  implicit none
  interface
    integer(c_int) function probe_expect_taken() bind(C)
      import :: c_int
    end function
    integer(c_int) function probe_takes_all_loops() bind(C)
      import :: c_int
    end function
    subroutine probe_counts(instances, forwarded) bind(C)
      import :: c_long_long
      integer(c_long_long), intent(out) :: instances, forwarded
    end subroutine
  end interface
  integer, parameter :: forwarded = -1, not_counted = -2
  integer :: failures = 0
  logical :: expect = .false.
  integer(c_long_long) :: inst0, fwd0
contains
  subroutine begin_shape()
    call probe_counts(inst0, fwd0)
  end subroutine

  ! hits(k) must all be 1; then the drop-in must have scheduled `taken`
  ! instances (taken = forwarded: none, and at least one thread entry
  ! forwarded; taken = not_counted: coverage only).
  subroutine end_shape(name, hits, taken)
    character(*), intent(in) :: name
    integer, intent(in) :: hits(:)
    integer, intent(in) :: taken
    integer(c_long_long) :: inst, fwd
    call probe_counts(inst, fwd)
    if (any(hits /= 1)) then
      write (0, '(a,a,a,i0,a,i0,a,i0,a)') 'shape ', name, ': of ', size(hits), ' iterations ', &
        count(hits == 0), ' missed, ', count(hits > 1), ' ran more than once'
      failures = failures + 1
    end if
    if (.not. expect .or. taken == not_counted) return
    if (taken >= 0 .and. inst - inst0 /= taken) then
      write (0, '(a,a,a,i0,a,i0)') 'shape ', name, ': the drop-in scheduled ', inst - inst0, &
        ' loop instances, expected ', taken
      failures = failures + 1
    else if (taken == forwarded .and. (inst - inst0 /= 0 .or. fwd - fwd0 == 0)) then
      write (0, '(a,a,a,i0,a,i0,a)') 'shape ', name, ': the drop-in scheduled ', inst - inst0, &
        ' instances and forwarded ', fwd - fwd0, ', expected 0 and some'
      failures = failures + 1
    end if
  end subroutine
end module probe

program shapes
  use probe
  use omp_lib
  implicit none
  integer, parameter :: n = 1000
  integer :: hits(n), hits2(2 * n), hits3(37 * 15)
  integer :: i, j, lo, hi, dyn
  integer(kind=8) :: k, klo, khi
  integer(c_long_long) :: inst, fwd

  expect = probe_expect_taken() /= 0
  lo = 1
  hi = n
  ! Bounds must stay unknown to the compiler (else gfortran hoists them into
  ! GOMP_parallel_loop_*, which only the _const shape is meant to test).
  call get_environment_variable('SHAPES_NEVER_SET', status=i)
  if (i == 0) lo = 2

  ! Unit step, integer bounds.
  call begin_shape()
  hits = 0
  !$omp parallel
  !$omp do schedule(runtime)
  do i = lo, hi
    !$omp atomic
    hits(i) = hits(i) + 1
  end do
  !$omp end do
  !$omp end parallel
  call end_shape('unit_step', hits, 1)

  ! Negative step: hi, hi-3, ..., down to lo.
  call begin_shape()
  hits = 0
  !$omp parallel
  !$omp do schedule(runtime)
  do i = hi, lo, -3
    !$omp atomic
    hits((hi - i) / 3 + 1) = hits((hi - i) / 3 + 1) + 1
  end do
  !$omp end do
  !$omp end parallel
  call end_shape('negative_step3', hits(1:(hi - lo) / 3 + 1), 1)

  ! Step 7 upwards.
  call begin_shape()
  hits = 0
  !$omp parallel
  !$omp do schedule(runtime)
  do i = lo, hi, 7
    !$omp atomic
    hits((i - lo) / 7 + 1) = hits((i - lo) / 7 + 1) + 1
  end do
  !$omp end do
  !$omp end parallel
  call end_shape('step7', hits(1:(hi - lo) / 7 + 1), 1)

  ! integer(8) bounds above 2**31.
  call begin_shape()
  hits2 = 0
  klo = 2_8**31 - n + lo - 1
  khi = klo + 2 * n - 1
  !$omp parallel
  !$omp do schedule(runtime)
  do k = klo, khi
    !$omp atomic
    hits2(k - klo + 1) = hits2(k - klo + 1) + 1
  end do
  !$omp end do
  !$omp end parallel
  call end_shape('int8_across_2pow31', hits2, 1)

  ! nonmonotonic, nowait, then a second loop in the same region.
  call begin_shape()
  hits = 0
  hits2 = 0
  !$omp parallel
  !$omp do schedule(nonmonotonic: runtime)
  do i = lo, hi
    !$omp atomic
    hits(i) = hits(i) + 1
  end do
  !$omp end do nowait
  !$omp do schedule(runtime)
  do i = 1, 2 * hi
    !$omp atomic
    hits2(i) = hits2(i) + 1
  end do
  !$omp end do
  !$omp end parallel
  call end_shape('nonmonotonic_nowait', hits, 2)
  call end_shape('loop_after_nowait', hits2, not_counted)  ! both loops counted by the line above

  ! parallel do with constant bounds: gfortran's combined GOMP_parallel_loop_*.
  call begin_shape()
  hits = 0
  !$omp parallel do schedule(runtime)
  do i = 1, 1000
    !$omp atomic
    hits(i) = hits(i) + 1
  end do
  !$omp end parallel do
  call end_shape('parallel_do_const', hits, 1)

  ! collapse(2), inner step 3 from -5.
  call begin_shape()
  hits3 = 0
  !$omp parallel do schedule(runtime) collapse(2)
  do i = 0, 36
    do j = -5, 39, 3
      !$omp atomic
      hits3(i * 15 + (j + 5) / 3 + 1) = hits3(i * 15 + (j + 5) / 3 + 1) + 1
    end do
  end do
  !$omp end parallel do
  call end_shape('collapse2', hits3, 1)

  ! schedule(dynamic): taken only with AUTOSCHED_OMP_LOOPS=all.
  dyn = forwarded
  if (probe_takes_all_loops() /= 0) dyn = 1
  call begin_shape()
  hits = 0
  !$omp parallel
  !$omp do schedule(dynamic, 4)
  do i = lo, hi
    !$omp atomic
    hits(i) = hits(i) + 1
  end do
  !$omp end do
  !$omp end parallel
  call end_shape('dynamic4', hits, dyn)

  call probe_counts(inst, fwd)
  if (expect .and. inst == 0) then
    write (0, '(a)') 'the drop-in is loaded but scheduled no loop instance at all'
    failures = failures + 1
  end if
  if (failures /= 0) then
    write (0, '(i0,a)') failures, ' Fortran shape checks failed'
    stop 1
  end if
  write (*, '(a,i0,a,i0,a)') 'Fortran shapes correct; drop-in: ', inst, ' instances, ', fwd, ' forwarded'
end program shapes
