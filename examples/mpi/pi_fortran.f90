! pi by the midpoint rule, written the DLS4LB way in Fortran: each time
! step's iterations are self-scheduled across the ranks through the module
! autosched_mpi, and MPI_Reduce adds the partial sums. Self-verifying: stops
! with a nonzero code unless every step finds pi to 1e-9 and the ranks
! together ran every iteration once. Iterations are numbered 1 .. n here.
!   mpirun -np 4 pi_fortran [schedule]      (default: auto)
program pi_fortran
  use mpi
  use autosched_mpi
  use, intrinsic :: iso_fortran_env, only: int64, real64, error_unit
  implicit none
  integer(int64), parameter :: n = 2000000_int64
  integer, parameter :: steps = 6
  real(real64), parameter :: pi_reference = 3.14159265358979323846_real64
  type(autosched_mpi_loop) :: loop
  type(autosched_mpi_loop_result) :: result
  character(len=64) :: schedule
  integer(int64) :: start, size, i, iterations, all_iterations
  real(real64) :: h, x, partial, total, work_seconds, pi
  integer :: rank, ierr, status, step, failures
  logical :: done

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  schedule = ''
  if (command_argument_count() > 0) call get_command_argument(1, schedule)
  h = 1.0_real64 / real(n, real64)
  failures = 0

  call autosched_mpi_setup(MPI_COMM_WORLD, 'pi_fortran', loop, status)     ! DLS_Setup
  call must(status, 'autosched_mpi_setup')
  call autosched_mpi_set_schedule(loop, schedule, status)
  call must(status, 'autosched_mpi_set_schedule')
  do step = 1, steps
    partial = 0
    call autosched_mpi_start_loop(loop, 1_int64, n + 1, status)           ! DLS_StartLoop
    call must(status, 'autosched_mpi_start_loop')
    do
      call autosched_mpi_terminated(loop, done, status)                   ! DLS_Terminated
      call must(status, 'autosched_mpi_terminated')
      if (done) exit
      call autosched_mpi_start_chunk(loop, start, size, status)          ! DLS_StartChunk
      call must(status, 'autosched_mpi_start_chunk')
      do i = start, start + size - 1
        x = (real(i, real64) - 0.5_real64) * h
        partial = partial + 4.0_real64 / (1.0_real64 + x * x)
      end do
      call autosched_mpi_end_chunk(loop, status)                          ! DLS_EndChunk
      call must(status, 'autosched_mpi_end_chunk')
    end do
    call autosched_mpi_end_loop(loop, iterations, work_seconds, status)   ! DLS_EndLoop
    call must(status, 'autosched_mpi_end_loop')

    call MPI_Reduce(partial, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    call MPI_Reduce(iterations, all_iterations, 1, MPI_INTEGER8, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      call autosched_mpi_last_result(loop, result, status)
      call must(status, 'autosched_mpi_last_result')
      pi = total * h
      if (abs(pi - pi_reference) >= 1.0e-9_real64 .or. all_iterations /= n) failures = failures + 1
      write (*, '(a,i0,a,f14.12,a,es8.1,a,i0,5a,f0.2,a)') 'step ', step, ': pi = ', pi, ' (error ', &
        abs(pi - pi_reference), '), ', all_iterations, ' iterations, ', trim(result%technique), ' over ', &
        trim(result%protocol), ', ', result%loop_seconds * 1.0e3_real64, ' ms'
    end if
  end do
  call autosched_mpi_finalize(loop, status)                               ! DLS_Finalize
  call must(status, 'autosched_mpi_finalize')

  call MPI_Bcast(failures, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
  if (failures /= 0) error stop 1

contains

  subroutine must(code, call_name)
    integer, intent(in) :: code
    character(len=*), intent(in) :: call_name
    integer :: e
    if (code /= AUTOSCHED_MPI_OK) then
      write (error_unit, '(2a,i0,2a)') call_name, ' failed (', code, '): ', autosched_mpi_last_error()
      call MPI_Abort(MPI_COMM_WORLD, 2, e)
    end if
  end subroutine must

end program pi_fortran
