import { useState, type ChangeEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useImportConfigMutation } from '@cbh/api-client';
import { CONFIG_DOCUMENT_MAX_BYTES, type ImportResult } from '@cbh/contracts';
import { Button, FieldLabel, Muted, plural, TextArea, theme, toast } from '@cbh/ui';
import { ConfirmDialog, Dialog, DialogActions } from '@cbh/ui/overlays';
import { ImportChangesTable } from './ImportChangesTable';
import { appliedText, changeCount, countChanges, documentMediaType, pendingText } from './import-summary';

const MAX_MB = CONFIG_DOCUMENT_MAX_BYTES / 1_048_576;

const DocumentText = styled(TextArea)`
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 13px;
  min-height: 180px;
`;

const Check = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
  font-size: 14px;
`;

const Problems = styled.ul`
  margin: 0;
  padding: 8px 12px 8px 28px;
  border-radius: 6px;
  border: 1px solid ${theme.colors.destructive};
  color: ${theme.colors.destructive};
  font-size: 14px;
`;

const PreviewSection = styled.section`
  display: grid;
  gap: 12px;
  min-width: 0;
`;

/** The dry run whose diff is shown, with what it was asked of: Apply is for exactly that. */
interface Preview {
  document: string;
  prune: boolean;
  result: ImportResult;
}

/**
 * What went wrong, in the API's words when it refused the document (400 names its path, 409 the item, 413 the
 * size), in ours when the request failed for another reason.
 */
function problemOf(error: unknown, fallback: string): string[] {
  const status = (error as { status?: unknown }).status;
  const message = apiErrorMessage(error);
  if (message && typeof status === 'number' && status >= 400 && status < 500) return message.split('; ');
  return [`${fallback} Please try again.`];
}

/**
 * Import: a document uploaded or pasted, its dry run shown as a table of changes, then Apply after a confirmation.
 * The screens update by themselves afterwards: every applied change reaches them as the live message a change
 * made by hand sends.
 */
export function ImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [text, setText] = useState('');
  const [prune, setPrune] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [runPreview, previewing] = useImportConfigMutation();
  const [runApply, applying] = useImportConfigMutation();

  const counts = preview ? countChanges(preview.result.changes) : null;
  const current = preview !== null && preview.document === text && preview.prune === prune;
  const pending = counts ? changeCount(counts) : 0;

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (file.size > CONFIG_DOCUMENT_MAX_BYTES) {
      setProblems([`${file.name} is larger than ${MAX_MB} MB, the most an import reads.`]);
      return;
    }
    setText(await file.text());
    setProblems([]);
  };

  const showPreview = async () => {
    setProblems([]);
    const asked = { document: text, prune };
    try {
      const result = await runPreview({ ...asked, contentType: documentMediaType(text), dryRun: true }).unwrap();
      setPreview({ ...asked, result });
    } catch (error) {
      setPreview(null);
      setProblems(problemOf(error, 'The changes could not be previewed.'));
    }
  };

  const apply = async () => {
    if (!preview) return;
    try {
      const result = await runApply({
        document: preview.document,
        prune: preview.prune,
        contentType: documentMediaType(preview.document),
        dryRun: false,
      }).unwrap();
      toast({ title: 'Configuration Applied', description: appliedText(countChanges(result.changes)) });
      setConfirming(false);
      setText('');
      setPrune(false);
      setPreview(null);
      onOpenChange(false);
    } catch (error) {
      // nothing was changed (one transaction): the diff stays, with the reason above it
      setConfirming(false);
      setProblems(problemOf(error, 'The configuration could not be applied.'));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      wide
      title="Import configuration"
      description="Upload or paste a document exported from a hub, as JSON or YAML. Preview changes shows what importing it would do; nothing changes until you apply it."
    >
      <FieldLabel>
        Upload a file
        <input type="file" accept=".json,.yaml,.yml,application/json,application/yaml" onChange={(event) => void readFile(event)} />
      </FieldLabel>
      <FieldLabel>
        Document
        <DocumentText value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} placeholder="version: 1" />
      </FieldLabel>
      <Check>
        <input type="checkbox" checked={prune} onChange={(event) => setPrune(event.target.checked)} />
        Delete items missing from the document
      </Check>
      {problems.length > 0 ? (
        <Problems role="alert" aria-label="Problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </Problems>
      ) : null}
      {preview && counts ? (
        <PreviewSection aria-label="Preview">
          {current ? null : (
            <Muted role="note">The document or its options changed since this preview: preview the changes again to apply them.</Muted>
          )}
          <ImportChangesTable changes={preview.result.changes} counts={counts} />
        </PreviewSection>
      ) : null}
      <DialogActions>
        <Button type="button" $variant="outline" onClick={() => onOpenChange(false)}>
          Close
        </Button>
        <Button type="button" $variant="outline" disabled={!text.trim() || previewing.isLoading} onClick={() => void showPreview()}>
          {previewing.isLoading ? 'Previewing…' : 'Preview changes'}
        </Button>
        <Button type="button" disabled={!current || pending === 0} onClick={() => setConfirming(true)}>
          Apply
        </Button>
      </DialogActions>
      {counts ? (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`Apply ${plural(pending, 'change')}?`}
          description={pendingText(counts)}
          confirmLabel="Apply"
          pendingLabel="Applying…"
          pending={applying.isLoading}
          onConfirm={() => void apply()}
        />
      ) : null}
    </Dialog>
  );
}
