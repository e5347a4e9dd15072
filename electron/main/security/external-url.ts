/** Checklist #15: one rule for window.open and `shell:openUrl`, kept in core (see its comment). */
export { isSafeExternalUrl } from '../../core/security/external-url';
