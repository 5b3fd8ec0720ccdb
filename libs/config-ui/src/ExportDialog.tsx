import { useState } from 'react';
import styled from 'styled-components';
import { exportUrl } from '@cbh/api-client';
import { CONFIG_FORMATS, type ConfigFormat } from '@cbh/contracts';
import { Button, ButtonLink } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';

const FORMAT_LABELS: Record<ConfigFormat, string> = { json: 'JSON', yaml: 'YAML' };

const Formats = styled.fieldset`
  display: flex;
  gap: 16px;
  margin: 0;
  padding: 0;
  border: 0;
  legend {
    padding: 0;
    margin-bottom: 8px;
    font-size: 14px;
    font-weight: 500;
  }
  label {
    display: flex;
    align-items: center;
    gap: 6px;
    font-size: 14px;
  }
`;

/**
 * Export: the hub's configuration as one file. Download is a plain link, so the browser saves what the API answers
 * (the session cookie goes with it) without the document passing through the page.
 */
export function ExportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [format, setFormat] = useState<ConfigFormat>('yaml');
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Export configuration"
      description="Every breaker, service and domain with the settings you can set, as one document to keep in git and import here or on another hub."
    >
      <Formats>
        <legend>Format</legend>
        {CONFIG_FORMATS.map((choice) => (
          <label key={choice}>
            <input type="radio" name="export-format" value={choice} checked={format === choice} onChange={() => setFormat(choice)} />
            {FORMAT_LABELS[choice]}
          </label>
        ))}
      </Formats>
      <DialogActions>
        <Button type="button" $variant="outline" onClick={() => onOpenChange(false)}>
          Close
        </Button>
        <ButtonLink href={exportUrl(format)} download={`hub.${format}`}>
          Download
        </ButtonLink>
      </DialogActions>
    </Dialog>
  );
}
