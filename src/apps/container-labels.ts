/** The labels on every container, network and volume the service makes on the engine for apps. */
export const LABEL_INSTANCE = 'platform.instance';
export const LABEL_APP = 'platform.app';
export const LABEL_SERVICE = 'platform.service';
export const LABEL_VOLUME = 'platform.volume';
export const LABEL_REVISION = 'platform.revision';
