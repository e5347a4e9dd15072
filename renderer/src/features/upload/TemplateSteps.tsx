import { useBridgeQuery } from '../../bridge/use-bridge';
import { ErrorPanel } from '../../components/ErrorPanel';
import { ArrowRightIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { templateSteps } from './template-steps';

/** The chosen Template's steps, read afresh (templates:get) so they are the ones that will run. */
export const TemplateSteps = ({ templateId }: { templateId: string }) => {
  const template = useBridgeQuery('templates:get', { id: templateId });
  if (template.isPending) {
    return (
      <div className="template-steps muted small" data-testid="template-steps" aria-busy="true">
        <Spinner size={12} /> Reading its steps…
      </div>
    );
  }
  if (template.isError) {
    return <ErrorPanel title="Could not read the Template's steps" code={template.error.code} message={template.error.message} httpCode={template.error.httpCode} data-testid="template-steps-error" />;
  }
  const steps = templateSteps(template.data.content);
  if (steps.length === 0) {
    return (
      <p className="template-steps muted small" data-testid="template-steps">
        This Template has no steps.
      </p>
    );
  }
  return (
    <ol className="template-steps small" data-testid="template-steps" aria-label={`Steps of ${template.data.name}`}>
      {steps.map((step, i) => (
        <li key={step.name} data-testid="template-step">
          {i > 0 && (
            <span className="template-step-arrow" aria-hidden="true">
              <ArrowRightIcon size={12} />
            </span>
          )}
          <code className="code-chip">{step.name}</code>
          {step.robot !== null || step.detail !== null ? (
            <span className="muted">
              {' '}
              ({[step.robot ?? 'no robot', step.detail].filter(Boolean).join(' ')})
            </span>
          ) : null}
        </li>
      ))}
    </ol>
  );
};
