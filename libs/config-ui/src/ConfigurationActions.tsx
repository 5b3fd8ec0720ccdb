import { lazy, Suspense, useState } from 'react';
import styled from 'styled-components';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { hasPermission } from '@cbh/contracts';
import { Button } from '@cbh/ui';

// fetched on first use: a page that shows these buttons does not grow by the dialogs' code
const loadExport = () => import('./ExportDialog');
const loadImport = () => import('./ImportDialog');
const ExportDialog = lazy(() => loadExport().then((module) => ({ default: module.ExportDialog })));
const ImportDialog = lazy(() => loadImport().then((module) => ({ default: module.ImportDialog })));

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;

type Opened = 'export' | 'import' | null;

/**
 * Export and Import of the hub's configuration, for holders of export_data and import_data: nothing for anyone
 * else. A dialog stays mounted once opened, so an Import closed by mistake keeps its document.
 */
export function ConfigurationActions() {
  const { data: user } = useGetAuthUserQuery();
  const [open, setOpen] = useState<Opened>(null);
  const [mounted, setMounted] = useState<{ export: boolean; import: boolean }>({ export: false, import: false });
  const canExport = hasPermission(user, 'export_data');
  const canImport = hasPermission(user, 'import_data');
  if (!canExport && !canImport) return null;

  const show = (which: Exclude<Opened, null>) => {
    setMounted((was) => ({ ...was, [which]: true }));
    setOpen(which);
  };
  const onOpenChange = (which: Exclude<Opened, null>) => (next: boolean) => setOpen(next ? which : null);

  return (
    <Row role="group" aria-label="Configuration">
      {canExport ? (
        <Button
          type="button"
          $variant="outline"
          onPointerEnter={() => void loadExport()}
          onFocus={() => void loadExport()}
          onClick={() => show('export')}
        >
          Export
        </Button>
      ) : null}
      {canImport ? (
        <Button
          type="button"
          $variant="outline"
          onPointerEnter={() => void loadImport()}
          onFocus={() => void loadImport()}
          onClick={() => show('import')}
        >
          Import
        </Button>
      ) : null}
      <Suspense fallback={null}>
        {canExport && mounted.export ? <ExportDialog open={open === 'export'} onOpenChange={onOpenChange('export')} /> : null}
        {canImport && mounted.import ? <ImportDialog open={open === 'import'} onOpenChange={onOpenChange('import')} /> : null}
      </Suspense>
    </Row>
  );
}
