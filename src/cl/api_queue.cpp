// Command queues, command submission and events. A queue's commands run one after the
// other in the order they were enqueued, each once its wait list is complete, on the
// threads of a pool all queues share (objects.h); an out-of-order queue is accepted and
// runs in order too.
#include <algorithm>

#include "commands.h"
#include "info.h"

namespace ventus::cl {

cl_int check_wait_list(Context* context, cl_uint count, const cl_event* events) {
  if ((count == 0) != (events == nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < count; ++i) {
    Event* e = live<Event>(events[i]);
    if (e == nullptr) return CL_INVALID_EVENT_WAIT_LIST;
    if (e->context != context) return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

namespace {

// A new event of `context` (and `queue`), not yet published.
Event* new_event(Context* context, Queue* queue, cl_command_type type) {
  auto* event = new Event;
  event->context = context;
  attach(context);
  event->queue = queue;
  if (queue) attach(queue);
  event->type = type;
  event->queued = now_ns();
  return event;
}

}  // namespace

cl_int submit(Queue* queue, cl_command_type type, cl_uint wait_count, const cl_event* wait_list,
              cl_event* event_out, bool blocking, std::function<cl_int()> work) {
  return submit(queue, type, wait_count, wait_list, event_out, blocking,
                [work = std::move(work)](Event&) { return work(); });
}

cl_int submit(Queue* queue, cl_command_type type, cl_uint wait_count, const cl_event* wait_list,
              cl_event* event_out, bool blocking, std::function<cl_int(Event&)> work) {
  Ref<Event> event;
  try {
    Event* created = new_event(queue->context, queue, type);
    event = Ref<Event>(created);
    // The application holds a reference only if it asked for the event.
    publish(created, event_out != nullptr ? 1 : 0);
    Command command;
    command.event = event;
    for (cl_uint i = 0; i < wait_count; ++i)
      command.wait_list.emplace_back(live<Event>(wait_list[i]));
    command.work = std::move(work);
    // Commands are flushed as they are queued: the pool starts them at once.
    event->submitted = now_ns();
    if (event_out != nullptr) *event_out = created->handle();
    if (!blocking || !queue->try_run_inline(command)) queue->enqueue(std::move(command));
  } catch (const std::bad_alloc&) {
    if (event) event->set_status(CL_OUT_OF_HOST_MEMORY);  // an event handed out never waits
    return CL_OUT_OF_HOST_MEMORY;
  }
  if (blocking && event->wait() < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return CL_SUCCESS;
}

namespace {

cl_command_queue create_queue(cl_context context_handle, cl_device_id device,
                              cl_command_queue_properties properties, cl_int* errcode_ret) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return set_error(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (!is_live(device, Kind::device)) return set_error(errcode_ret, CL_INVALID_DEVICE), nullptr;
  constexpr cl_command_queue_properties kKnown =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  if ((properties & ~kKnown) != 0) return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  try {
    auto* queue = new Queue;
    queue->context = context;
    queue->device = device;
    queue->properties = properties;
    attach(context);
    publish(queue);
    set_error(errcode_ret, CL_SUCCESS);
    return queue->handle();
  } catch (const std::exception&) {
    return set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
}

// A marker or barrier: a command that does nothing once its wait list (and, the queue
// being in order, everything queued before it) is complete.
cl_int enqueue_sync_point(cl_command_queue queue_handle, cl_command_type type, cl_uint wait_count,
                          const cl_event* wait_list, cl_event* event) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  if (cl_int s = check_wait_list(queue->context, wait_count, wait_list); s != CL_SUCCESS) return s;
  return submit(queue, type, wait_count, wait_list, event, false, [] { return CL_COMPLETE; });
}

}  // namespace
}  // namespace ventus::cl

using namespace ventus::cl;

extern "C" {

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context,
                                                               cl_device_id device,
                                                               cl_command_queue_properties properties,
                                                               cl_int* errcode_ret) {
  return create_queue(context, device, properties, errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(
    cl_context context, cl_device_id device, const cl_queue_properties* properties,
    cl_int* errcode_ret) {
  cl_command_queue_properties flags = 0;
  for (const cl_queue_properties* p = properties; p != nullptr && *p != 0; p += 2) {
    if (p[0] != CL_QUEUE_PROPERTIES) return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
    flags = static_cast<cl_command_queue_properties>(p[1]);
  }
  return create_queue(context, device, flags, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue queue) {
  return retain_handle(queue, Kind::queue, CL_INVALID_COMMAND_QUEUE);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue queue) {
  // Commands already queued still run: they hold their events, which hold the queue; its
  // kernels stop only when the application lets go of the whole context.
  return release_handle(queue, Kind::queue, CL_INVALID_COMMAND_QUEUE);
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue queue_handle,
                                                      cl_command_queue_info param_name,
                                                      size_t param_value_size, void* param_value,
                                                      size_t* param_value_size_ret) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_QUEUE_CONTEXT: return info_value(n, v, r, queue->context->handle());
    case CL_QUEUE_DEVICE:
      return info_value(n, v, r, queue->device);
    case CL_QUEUE_REFERENCE_COUNT: return info_value(n, v, r, reference_count(queue));
    case CL_QUEUE_PROPERTIES:
      return info_value(n, v, r, queue->properties);
    default:
      return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue queue,
                                                          cl_command_queue_properties, cl_bool,
                                                          cl_command_queue_properties*) {
  // OpenCL 1.0's property change after creation, removed in 1.1.
  return is_live(queue, Kind::queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue queue) {
  // Commands start as they are queued.
  return is_live(queue, Kind::queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue queue_handle) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  Ref<Queue> keep(queue);
  queue->drain();
  return CL_SUCCESS;
}

// ---- markers and barriers: in-order queues make every command one already ----

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue queue,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event* event_wait_list,
                                                            cl_event* event) {
  return enqueue_sync_point(queue, CL_COMMAND_MARKER, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue queue,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event* event_wait_list,
                                                             cl_event* event) {
  return enqueue_sync_point(queue, CL_COMMAND_BARRIER, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue queue_handle, cl_event* event) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  if (event == nullptr) return CL_INVALID_VALUE;
  return submit(queue, CL_COMMAND_MARKER, 0, nullptr, event, false, [] { return CL_COMPLETE; });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue queue_handle) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  return submit(queue, CL_COMMAND_BARRIER, 0, nullptr, nullptr, false, [] { return CL_COMPLETE; });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue queue_handle,
                                                       cl_uint num_events,
                                                       const cl_event* event_list) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  if (num_events == 0 || event_list == nullptr) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; ++i) {
    Event* e = live<Event>(event_list[i]);
    if (e == nullptr) return CL_INVALID_EVENT;
    if (e->context != queue->context) return CL_INVALID_CONTEXT;
  }
  return submit(queue, CL_COMMAND_BARRIER, num_events, event_list, nullptr, false,
                [] { return CL_COMPLETE; });
}

// ---- events ----

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
  if (num_events == 0 || event_list == nullptr) return CL_INVALID_VALUE;
  std::vector<Ref<Event>> events;
  for (cl_uint i = 0; i < num_events; ++i) {
    Event* e = live<Event>(event_list[i]);
    if (e == nullptr) return CL_INVALID_EVENT;
    if (!events.empty() && e->context != events.front()->context) return CL_INVALID_CONTEXT;
    events.emplace_back(e);
  }
  bool failed = false;
  for (const Ref<Event>& e : events) failed |= e->wait() < 0;
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event_handle, cl_event_info param_name,
                                               size_t param_value_size, void* param_value,
                                               size_t* param_value_size_ret) {
  Event* event = live<Event>(event_handle);
  if (event == nullptr) return CL_INVALID_EVENT;
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE: return info_value(n, v, r, handle_of(event->queue));
    case CL_EVENT_CONTEXT: return info_value(n, v, r, event->context->handle());
    case CL_EVENT_COMMAND_TYPE:
      return info_value(n, v, r, event->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
      std::lock_guard guard(event->lock);
      return info_value(n, v, r, event->status);
    }
    case CL_EVENT_REFERENCE_COUNT: return info_value(n, v, r, reference_count(event));
    default:
      return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event_handle,
                                                        cl_profiling_info param_name,
                                                        size_t param_value_size, void* param_value,
                                                        size_t* param_value_size_ret) {
  Event* event = live<Event>(event_handle);
  if (event == nullptr) return CL_INVALID_EVENT;
  if (event->queue == nullptr || !event->queue->profiling()) return CL_PROFILING_INFO_NOT_AVAILABLE;
  std::lock_guard guard(event->lock);
  if (event->status != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED:
      return info_value(n, v, r, event->queued);
    case CL_PROFILING_COMMAND_SUBMIT:
      return info_value(n, v, r, event->submitted);
    case CL_PROFILING_COMMAND_START:
      return info_value(n, v, r, event->started);
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE:
      return info_value(n, v, r, event->ended);
    default:
      return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return retain_handle(event, Kind::event, CL_INVALID_EVENT);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return release_handle(event, Kind::event, CL_INVALID_EVENT);
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context_handle,
                                                    cl_int* errcode_ret) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return set_error(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  try {
    Event* event = new_event(context, nullptr, CL_COMMAND_USER);
    event->status = CL_SUBMITTED;
    publish(event);
    set_error(errcode_ret, CL_SUCCESS);
    return event->handle();
  } catch (const std::bad_alloc&) {
    return set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event_handle,
                                                     cl_int execution_status) {
  Event* event = live<Event>(event_handle);
  if (event == nullptr || event->type != CL_COMMAND_USER) return CL_INVALID_EVENT;
  if (execution_status > CL_COMPLETE) return CL_INVALID_VALUE;
  Event::Triggered triggered;
  if (!event->advance(execution_status, triggered)) return CL_INVALID_OPERATION;  // set once only
  event->run_triggered(triggered);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetEventCallback(cl_event event_handle, cl_int command_exec_callback_type,
                   void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*), void* user_data) {
  Event* event = live<Event>(event_handle);
  if (event == nullptr) return CL_INVALID_EVENT;
  if (pfn_notify == nullptr ||
      (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
       command_exec_callback_type != CL_COMPLETE))
    return CL_INVALID_VALUE;
  event->context->object_held();  // the callback waits for the event: it stays held
  cl_int reached = 0;
  {
    std::lock_guard guard(event->lock);
    reached = event->status;
    if (std::max(reached, CL_COMPLETE) > command_exec_callback_type) {
      event->callbacks.push_back({command_exec_callback_type, pfn_notify, user_data});
      return CL_SUCCESS;
    }
  }
  // Already there: the callback runs now.
  pfn_notify(event_handle, reached, user_data);
  return CL_SUCCESS;
}

}  // extern "C"
