/** The push control, for the notification panel (or any signed-in screen). */
export { PushControl } from './push-control';
export { usePushControl, type PushControlModel, type PushAction } from './use-push';
